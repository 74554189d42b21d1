import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.ts';

/** Writes a request as bytes and reads the answer until the server closes (or 20 s pass: a deadline, not a wait). */
function rawRequest(port: number, request: string) {
  return new Promise<{ status: number; body: string; closed: boolean }>((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    let received = '';
    let closed = false;
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      const [head = '', body = ''] = received.split('\r\n\r\n', 2);
      resolve({ status: Number(head.split(' ')[1]), body, closed });
    };
    const timer = setTimeout(done, 20_000);
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
    });
    socket.on('end', () => {
      closed = true;
      done();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' ? done() : reject(error)));
  });
}

const codeOf = (body: string) => (JSON.parse(body) as { code: string }).code;

describe('what every port reads of a request before the console, the API or the edge', () => {
  let server: TestServer;
  let port: number;
  let console: string;

  beforeAll(async () => {
    server = await startTestServer();
    port = Number(new URL(server.url).port);
    console = `127.0.0.1:${port}`;
  });
  afterAll(() => server?.close());

  it('takes the host of an absolute-form target over the Host header', async () => {
    const answer = await rawRequest(
      port,
      `GET http://${console}/api/v1/system/info HTTP/1.1\r\nHost: site.localhost:${port}\r\nConnection: close\r\n\r\n`,
    );
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toHaveProperty('version');
  });

  it('refuses two Host headers with 400 HOST_INVALID and closes the connection', async () => {
    const answer = await rawRequest(
      port,
      `GET /api/v1/system/info HTTP/1.1\r\nHost: ${console}\r\nHost: ${console}\r\n\r\n`,
    );
    expect(answer.status).toBe(400);
    expect(codeOf(answer.body)).toBe('HOST_INVALID');
    expect(answer.closed).toBe(true);
  });

  it('answers 414 URL_TOO_LONG to a URL over 8 KB, and over the 16 KB Node reads', async () => {
    for (const length of [9_000, 20_000]) {
      const answer = await rawRequest(port, `GET /${'a'.repeat(length)} HTTP/1.1\r\nHost: ${console}\r\n\r\n`);
      expect([answer.status, codeOf(answer.body)]).toEqual([414, 'URL_TOO_LONG']);
    }
  });

  it('answers 431 HEADERS_TOO_LARGE to headers over 16 KB', async () => {
    const answer = await rawRequest(
      port,
      `GET / HTTP/1.1\r\nHost: ${console}\r\nCookie: ${'c'.repeat(20_000)}\r\n\r\n`,
    );
    expect([answer.status, codeOf(answer.body)]).toEqual([431, 'HEADERS_TOO_LARGE']);
  });

  it('answers 400 REQUEST_MALFORMED to what is not HTTP, or a target that is neither a path nor a URL', async () => {
    const garbage = await rawRequest(port, 'NOT HTTP AT ALL\r\n\r\n');
    expect([garbage.status, codeOf(garbage.body)]).toEqual([400, 'REQUEST_MALFORMED']);
    const target = await rawRequest(port, `GET ftp://${console}/ HTTP/1.1\r\nHost: ${console}\r\n\r\n`);
    expect([target.status, codeOf(target.body)]).toEqual([400, 'REQUEST_MALFORMED']);
  });
});
