import { connect } from 'node:net';

export interface RawAnswer {
  status: number;
  headers: string;
  body: any;
}

/**
 * One request written byte for byte on its own connection, as no well-behaved client would send
 * it (a NUL in a header, a path fetch would re-encode, a method HTTP does not know).
 */
export function rawRequest(port: number, head: string, body: Buffer | string = ''): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer in 10 s')));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      const headers = text.slice(0, split);
      const raw = text.slice(split + 4);
      let parsed: unknown = raw;
      try {
        parsed = JSON.parse(raw);
      } catch {}
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(headers)?.[1] ?? 0), headers, body: parsed });
    });
    const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body);
    const length = bytes.length > 0 ? `Content-Length: ${bytes.length}\r\n` : '';
    // Not ended: a client's half-close before the answer makes the server drop the request.
    socket.write(
      Buffer.concat([
        Buffer.from(`${head}\r\nHost: 127.0.0.1:${port}\r\n${length}Connection: close\r\n\r\n`, 'latin1'),
        bytes,
      ]),
    );
  });
}
