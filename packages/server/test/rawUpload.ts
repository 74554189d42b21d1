import net from 'node:net';

/** What a server answered on a raw connection, and how long after the request was sent. */
export interface RawAnswer {
  status: number;
  /** The JSON body's `code`, if any. */
  code: string | null;
  afterMs: number;
}

/** How the client ends its side once the bytes are written. */
export type RawEnding = 'stall' | 'half-close' | { trickleEveryMs: number; chunked: boolean };

/**
 * Sends an HTTP/1.1 request by hand on a socket: a head claiming whatever `headers` say, then
 * `body`, then stalls with the connection open, half-closes it, or goes on trickling one byte `a`
 * at a time (a chunk of one byte, when chunked). Answers what came back, or a status of 0 when the server closed without a word or gave
 * none within `giveUpMs`: the bytes a hostile or broken client sends, which fetch never would.
 */
export function rawRequest(
  url: string,
  head: { method: string; path: string; headers: Record<string, string> },
  body: Buffer,
  ending: RawEnding,
  giveUpMs = 15_000,
): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    const startedAt = Date.now();
    let received = Buffer.alloc(0);
    let trickle: NodeJS.Timeout | undefined;
    const finish = () => {
      clearInterval(trickle);
      clearTimeout(givingUp);
      socket.destroy();
      resolve(parseAnswer(received, Date.now() - startedAt));
    };
    const givingUp = setTimeout(finish, giveUpMs);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (isComplete(received)) finish();
    });
    socket.on('close', finish);
    socket.on('error', () => undefined);
    const lines = [`${head.method} ${head.path} HTTP/1.1`, `host: ${hostname}:${port}`];
    for (const [name, value] of Object.entries(head.headers)) lines.push(`${name}: ${value}`);
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    socket.write(body);
    if (ending === 'half-close') socket.end();
    else if (ending !== 'stall') {
      const byte = ending.chunked ? '1\r\na\r\n' : 'a';
      trickle = setInterval(() => socket.writable && socket.write(byte), ending.trickleEveryMs);
    }
  });
}

/** Whether the bytes hold a whole answer: its head, and as many body bytes as it says. */
function isComplete(bytes: Buffer) {
  const headEnd = bytes.indexOf('\r\n\r\n');
  if (headEnd === -1) return false;
  const length = /\r\ncontent-length: *(\d+)/i.exec(bytes.subarray(0, headEnd).toString('latin1'));
  return bytes.length >= headEnd + 4 + Number(length?.[1] ?? 0);
}

function parseAnswer(bytes: Buffer, afterMs: number): RawAnswer {
  const text = bytes.toString('utf8');
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
  const body = text.slice(text.indexOf('\r\n\r\n') + 4);
  let code: string | null = null;
  try {
    code = JSON.parse(body).code ?? null;
  } catch {
    code = null;
  }
  return { status, code, afterMs };
}

/**
 * One ustar header for a file `name` whose size field says `size` (base-256 when octal cannot
 * hold it, as GNU tar writes large sizes), checksum fixed up: a header that may lie.
 */
export function tarHeader(name: string, size: number) {
  const header = Buffer.alloc(512);
  header.write(name, 0, 100, 'latin1');
  header.write('0000644\0', 100, 'latin1');
  header.write('0000000\0', 108, 'latin1');
  header.write('0000000\0', 116, 'latin1');
  if (size < 8 ** 11) header.write(`${size.toString(8).padStart(11, '0')}\0`, 124, 'latin1');
  else {
    header[124] = 0x80;
    header.writeBigUInt64BE(BigInt(size), 128);
  }
  header.write('00000000000\0', 136, 'latin1');
  header.write('0', 156, 'latin1');
  header.write('ustar\0', 257, 'latin1');
  header.write('00', 263, 'latin1');
  header.fill(0x20, 148, 156);
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
  return header;
}
