import net from 'node:net';

export interface RawAnswer {
  status: number;
  /** Lower-case names; a name sent twice keeps its last value. */
  headers: Record<string, string>;
  /** The head as it came, status line and header lines: what framing a client saw. */
  head: string;
  body: string;
}

/**
 * A request whose request line carries `path` byte for byte (latin1), as a client that does not
 * encode would send it (node:http refuses to send most such paths), on a connection of its own.
 */
export function rawRequest(
  port: number,
  host: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<RawAnswer> {
  const lines = [`GET ${path} HTTP/1.1`, `Host: ${host}`, 'Connection: close'];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () =>
      socket.write(Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1')),
    );
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.setTimeout(10_000, () => socket.destroy(new Error(`no answer to ${path}`)));
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const split = text.indexOf('\r\n\r\n');
      const head = split === -1 ? text : text.slice(0, split);
      const [statusLine = '', ...headerLines] = head.split('\r\n');
      const parsed: Record<string, string> = {};
      for (const line of headerLines) {
        const colon = line.indexOf(':');
        parsed[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({
        status: Number(statusLine.split(' ')[1]),
        headers: parsed,
        head,
        body: split === -1 ? '' : text.slice(split + 4),
      });
    });
  });
}
