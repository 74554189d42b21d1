import type { ChildProcess } from 'node:child_process';
import http from 'node:http';
import https from 'node:https';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { wholeBody } from '@wharf/server/testing';

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** Over TLS: the name sent as SNI; the bench's certificate is self-signed, so it is not verified. */
export interface Tls {
  servername: string;
}

/** One request to 127.0.0.1 with the Host header of a site, over TLS when `tls` is given. */
export function request(port: number, host: string, path: string, headers: Record<string, string> = {}, tls?: Tls) {
  return new Promise<Answer>((resolve, reject) => {
    const options = { host: '127.0.0.1', port, path, headers: { host, ...headers }, agent: false };
    const send = tls
      ? (callback: (res: http.IncomingMessage) => void) =>
          https.request({ ...options, servername: tls.servername, rejectUnauthorized: false }, callback)
      : (callback: (res: http.IncomingMessage) => void) => http.request(options, callback);
    const req = send((res) => {
      wholeBody(res).then((body) => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }), reject);
    });
    req.on('error', reject);
    req.end();
  });
}

export async function waitForHttp(port: number, host: string, path: string, child: ChildProcess, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${child.spawnfile} exited with ${child.exitCode}`);
    try {
      await request(port, host, path);
      return;
    } catch {
      await sleep(100);
    }
  }
  throw new Error(`Nothing answered on port ${port} within ${timeoutMs} ms`);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Stops a child process and waits for it to be gone. */
export async function stop(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM') {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await Promise.race([gone, sleep(15_000).then(() => child.kill('SIGKILL'))]);
}
