import { percentEncode } from './percentEncode.ts';

/**
 * The one form in which rules and requests meet (RFC 3986 §6.2.2): escapes of unreserved
 * characters and of UTF-8 text are decoded (text in NFC), every other escape is kept with
 * upper-case digits, characters a path may not hold raw are escaped, `.` and `..` are resolved and
 * empty segments dropped. `%2F`, `%3F`, `%23`, `%25`, `%5C` stay escapes: they are data, not
 * structure. So `/c%C3%A9line`, `/céline` and `/ce\u0301line` are one path, and a capture of it
 * is still a valid piece of a URL once its text is encoded again (fillCaptures.ts).
 */

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
/** Sub-delimiters, `:` and `@`: a path holds them raw; written escaped they stay escaped. */
const PATH_SAFE = /^[!$&'()*+,;=:@]$/;
/** A path already in normal form, the common case: nothing to decode, no dot or empty segment. */
const PLAIN = /^(?:\/[A-Za-z0-9\-_~!$&'()*+,;=:@][A-Za-z0-9\-._~!$&'()*+,;=:@]*)*\/?$/;
const SLASH = 0x2f;
const PERCENT = 0x25;
const utf8 = new TextDecoder('utf-8', { fatal: true });

interface Unit {
  value: number;
  escaped: boolean;
}

const hexValue = (byte: number | undefined) => {
  if (byte === undefined) return -1;
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  const lower = byte | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
};

export const escapeByte = (value: number) => `%${value.toString(16).toUpperCase().padStart(2, '0')}`;

/** The bytes of a segment, each marked as written escaped (`%XX`) or raw; a `%` without two hex digits is raw. */
function unitsOf(bytes: Uint8Array, start: number, end: number): Unit[] {
  const units: Unit[] = [];
  for (let i = start; i < end; i++) {
    const byte = bytes[i]!;
    const high = byte === PERCENT && i + 2 < end ? hexValue(bytes[i + 1]) : -1;
    const low = high === -1 ? -1 : hexValue(bytes[i + 2]);
    if (low === -1) units.push({ value: byte, escaped: false });
    else {
      units.push({ value: high * 16 + low, escaped: true });
      i += 2;
    }
  }
  return units;
}

/** The length of the UTF-8 sequence a lead byte opens, 0 for a byte that opens none. */
function sequenceLength(lead: number) {
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

/** The text a valid UTF-8 sequence at `at` decodes to, or null (an overlong form, a surrogate, a cut sequence). */
function utf8At(units: Unit[], at: number): string | null {
  const length = sequenceLength(units[at]!.value);
  if (length === 0 || at + length > units.length) return null;
  try {
    return utf8.decode(Uint8Array.from(units.slice(at, at + length), (unit) => unit.value));
  } catch {
    return null;
  }
}

function normalSegment(units: Unit[]): string {
  let out = '';
  let text = '';
  const flush = () => {
    out += text.normalize('NFC');
    text = '';
  };
  for (let i = 0; i < units.length; i++) {
    const { value, escaped } = units[i]!;
    if (value < 0x80) {
      const char = String.fromCharCode(value);
      if (UNRESERVED.test(char) || (!escaped && PATH_SAFE.test(char))) text += char;
      else {
        flush();
        out += escapeByte(value);
      }
      continue;
    }
    const decoded = utf8At(units, i);
    if (decoded === null) {
      flush();
      out += escapeByte(value);
      continue;
    }
    text += decoded;
    i += sequenceLength(value) - 1;
  }
  flush();
  return out;
}

/**
 * The normal form of a path given as bytes: a request's as it came (`Buffer.from(url, 'latin1')`:
 * Node hands the request line's bytes over as latin1 characters), a rule's as UTF-8 text. Keeps
 * a trailing slash.
 */
export function normalPathOfBytes(bytes: Uint8Array): string {
  const segments: string[] = [];
  let start = 0;
  for (let i = 0; i <= bytes.length; i++) {
    if (i < bytes.length && bytes[i] !== SLASH) continue;
    const segment = normalSegment(unitsOf(bytes, start, i));
    start = i + 1;
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  const trailingSlash = bytes.length > 1 && bytes[bytes.length - 1] === SLASH && segments.length > 0;
  return `/${segments.join('/')}${trailingSlash ? '/' : ''}`;
}

/** The normal form of a request's path, as the client sent it (still percent-encoded). */
export function normalRequestPath(rawPath: string): string {
  if (PLAIN.test(rawPath)) return rawPath;
  return normalPathOfBytes(Buffer.from(rawPath, 'latin1'));
}

/** The normal form of a path written in a rules file (UTF-8 text, maybe percent-encoded). */
export function normalRulePath(path: string): string {
  if (PLAIN.test(path)) return path;
  return normalPathOfBytes(Buffer.from(path, 'utf8'));
}

/**
 * A request's query (with its `?`) in ASCII: bytes the client sent raw, which Node hands over as
 * latin1 characters, percent-encoded as the bytes they are, so that a query passed on to a
 * Location or an upstream arrives as sent.
 */
export function asciiQuery(query: string): string {
  if (/^[\x21-\x7e]*$/.test(query)) return query;
  return query.replace(/[^\x21-\x7e]/g, (char) => {
    const code = char.charCodeAt(0);
    return code <= 0xff ? escapeByte(code) : percentEncode(char);
  });
}
