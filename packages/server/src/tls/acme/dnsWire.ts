/**
 * The few pieces of DNS wire format that `dns-packet` cannot write: it knows neither class NONE
 * (RFC 2136's "delete this one record") nor TSIG records, and TSIG's MAC covers names in their
 * canonical form (lower case, never compressed). Everything else is read and written by `dns-packet`.
 */

export const recordType = { SOA: 6, TXT: 16, TSIG: 250 } as const;
export const recordClass = { IN: 1, NONE: 254, ANY: 255 } as const;

/** A name in canonical wire form: lower-case labels, uncompressed, ending with the root's empty label. */
export function wireName(name: string): Buffer {
  const labels = name
    .toLowerCase()
    .split('.')
    .filter((label) => label !== '')
    .map((label) => Buffer.from(label, 'utf8'));
  const long = labels.find((label) => label.length > 63);
  if (long) throw new Error(`The DNS label "${long}" of ${name} is longer than 63 bytes`);
  return Buffer.concat([...labels.flatMap((label) => [Buffer.of(label.length), label]), Buffer.of(0)]);
}

export function uint16(value: number) {
  const bytes = Buffer.alloc(2);
  bytes.writeUInt16BE(value);
  return bytes;
}

export function uint32(value: number) {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value);
  return bytes;
}

/** TSIG's "time signed" is a 48-bit count of seconds. */
export function uint48(value: number) {
  const bytes = Buffer.alloc(6);
  bytes.writeUIntBE(value, 0, 6);
  return bytes;
}

export function resourceRecord(owner: string, type: number, klass: number, ttl: number, rdata: Buffer) {
  return Buffer.concat([wireName(owner), uint16(type), uint16(klass), uint32(ttl), uint16(rdata.length), rdata]);
}

/** A TXT record's data: the text in strings of at most 255 bytes, each after its length. */
export function txtData(text: string) {
  const bytes = Buffer.from(text, 'utf8');
  const strings: Buffer[] = [];
  for (let start = 0; start === 0 || start < bytes.length; start += 255) {
    const piece = bytes.subarray(start, start + 255);
    strings.push(Buffer.of(piece.length), piece);
  }
  return Buffer.concat(strings);
}

/** The offset just past a (possibly compressed) name that starts at `offset`. */
export function skipName(message: Buffer, offset: number): number {
  let at = offset;
  while (message[at] !== 0) {
    if (at >= message.length) throw new Error('The DNS answer ends inside a name');
    // A compression pointer (two bytes, top bits set) ends the name.
    if ((message[at]! & 0xc0) === 0xc0) return at + 2;
    at += message[at]! + 1;
  }
  return at + 1;
}

/** Where the message's last record starts (TSIG must be last, RFC 8945 §5.1), or null when it has none. */
export function lastRecordOffset(message: Buffer): number | null {
  const questions = message.readUInt16BE(4);
  const records = message.readUInt16BE(6) + message.readUInt16BE(8) + message.readUInt16BE(10);
  if (records === 0) return null;
  let offset = 12;
  for (let index = 0; index < questions; index++) offset = skipName(message, offset) + 4;
  for (let index = 0; index < records - 1; index++) {
    const dataStart = skipName(message, offset) + 10;
    offset = dataStart + message.readUInt16BE(dataStart - 2);
  }
  return offset;
}

const rcodeNames = ['NOERROR', 'FORMERR', 'SERVFAIL', 'NXDOMAIN', 'NOTIMP', 'REFUSED'];
const updateRcodeNames = ['YXDOMAIN', 'YXRRSET', 'NXRRSET', 'NOTAUTH', 'NOTZONE'];

/** The name of a message's response code (RFC 1035 and RFC 2136's), such as REFUSED or NOTZONE. */
export function rcodeName(message: Buffer) {
  const code = message.readUInt16BE(2) & 0xf;
  return [...rcodeNames, ...updateRcodeNames][code] ?? `RCODE ${code}`;
}
