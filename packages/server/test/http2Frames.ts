import tls from 'node:tls';

/**
 * A raw HTTP/2 client that writes frames as a hostile client would: it opens streams without
 * waiting for the server's SETTINGS (so without honouring its stream limit), cancels them at
 * once, and reads no answer body (no WINDOW_UPDATE). Node's own client cannot: it queues the
 * streams past the announced limit.
 */

const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n');
const FRAME = { data: 0, headers: 1, rstStream: 3, settings: 4, goaway: 7 } as const;
const END_STREAM = 0x1;
const END_HEADERS = 0x4;
const CANCEL = 0x8;
export const REFUSED_STREAM = 0x7;

function frame(type: number, flags: number, streamId: number, payload: Buffer) {
  const header = Buffer.alloc(9);
  header.writeUIntBE(payload.length, 0, 3);
  header[3] = type;
  header[4] = flags;
  header.writeUInt32BE(streamId, 5);
  return Buffer.concat([header, payload]);
}

/** A literal header field without indexing, with a new name (HPACK §6.2.2), no Huffman coding. */
function literal(name: string, value: string) {
  const parts = [Buffer.from([0x00]), hpackString(name), hpackString(value)];
  return Buffer.concat(parts);
}

function hpackString(text: string) {
  const bytes = Buffer.from(text, 'latin1');
  if (bytes.length < 127) return Buffer.concat([Buffer.from([bytes.length]), bytes]);
  // Lengths of 127 and more: the 7-bit prefix is full, the rest follows in 7-bit groups.
  const length: number[] = [127];
  let rest = bytes.length - 127;
  while (rest >= 128) {
    length.push((rest % 128) + 128);
    rest = Math.floor(rest / 128);
  }
  length.push(rest);
  return Buffer.concat([Buffer.from(length), bytes]);
}

/** The HEADERS frame of a GET, ending the stream. */
export function getRequest(streamId: number, authority: string, path: string, extra: [string, string][] = []) {
  // Indexed fields of HPACK's static table: :method GET (2), :scheme https (7).
  const block = Buffer.concat([
    Buffer.from([0x82, 0x87]),
    literal(':path', path),
    literal(':authority', authority),
    ...extra.map(([name, value]) => literal(name, value)),
  ]);
  return frame(FRAME.headers, END_STREAM | END_HEADERS, streamId, block);
}

export function cancel(streamId: number) {
  const code = Buffer.alloc(4);
  code.writeUInt32BE(CANCEL);
  return frame(FRAME.rstStream, 0, streamId, code);
}

/** What the server sent back on the connection. */
export interface ServerFrames {
  /** SETTINGS the server announced, by identifier (3: max concurrent streams, 6: max header list size). */
  settings: Map<number, number>;
  /** Streams that got an answer (a HEADERS frame). */
  answered: Set<number>;
  /** Streams the server reset, with its error code. */
  reset: Map<number, number>;
  /** The GOAWAY error code, when the server sent one. */
  goaway: number | null;
  /** Whether the server closed the connection. */
  closed: boolean;
}

function readFrames(received: ServerFrames, buffer: Buffer): Buffer {
  let rest = buffer;
  while (rest.length >= 9) {
    const length = rest.readUIntBE(0, 3);
    if (rest.length < 9 + length) break;
    const [type, streamId, payload] = [rest[3]!, rest.readUInt32BE(5) & 0x7fffffff, rest.subarray(9, 9 + length)];
    if (type === FRAME.settings)
      for (let i = 0; i + 6 <= payload.length; i += 6)
        received.settings.set(payload.readUInt16BE(i), payload.readUInt32BE(i + 2));
    if (type === FRAME.headers) received.answered.add(streamId);
    if (type === FRAME.rstStream) received.reset.set(streamId, payload.readUInt32BE(0));
    if (type === FRAME.goaway) received.goaway = payload.readUInt32BE(4);
    rest = rest.subarray(9 + length);
  }
  return rest;
}

/**
 * Connects over TLS with ALPN h2, writes the preface, an empty SETTINGS and `frames` at once,
 * then collects what the server sends until it closes the connection, `until` holds of what came, or
 * `forMs` passed.
 */
export function sendFrames(
  port: number,
  host: string,
  ca: string,
  frames: Buffer[],
  forMs: number,
  until?: (received: ServerFrames) => boolean,
): Promise<ServerFrames> {
  const received: ServerFrames = {
    settings: new Map(),
    answered: new Set(),
    reset: new Map(),
    goaway: null,
    closed: false,
  };
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port, servername: host, ca, ALPNProtocols: ['h2'] }, () => {
      socket.write(Buffer.concat([PREFACE, frame(FRAME.settings, 0, 0, Buffer.alloc(0)), ...frames]));
    });
    let pending: Buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      pending = readFrames(received, Buffer.concat([pending, chunk]));
      if (until?.(received)) done();
    });
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(received);
    };
    const timer = setTimeout(done, forMs);
    socket.on('close', () => {
      received.closed = true;
      done();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // A server that gives up on a connection may reset it; what it sent before still counts.
      if (error.code === 'ECONNRESET') return;
      clearTimeout(timer);
      reject(error);
    });
  });
}
