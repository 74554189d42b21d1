import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import net, { type AddressInfo, type Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reusedConnectionCutter } from '../../test/reusedConnections.ts';
import { wholeBody } from '../../test/wholeAnswer.ts';
import { createHttpServer } from '../http/httpServer.ts';
import { trustNobody } from '../http/trustProxy.ts';
import { PrimaryForwarder } from './forwardToPrimary.ts';

/** One request to the worker on a connection of its own: only the worker's to the primary are reused. */
function ask(port: number, method: string, urlPath: string, body?: string) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, method, path: urlPath, agent: false }, (answer) => {
      wholeBody(answer).then((body) => resolve({ status: answer.statusCode ?? 0, text: body.toString() }), reject);
    });
    request.on('error', reject);
    request.end(body);
  });
}

describe('a cluster worker handing requests over to its primary', () => {
  const cutter = reusedConnectionCutter();
  /** What the primary answered, in order: `METHOD path body`. */
  const answered: string[] = [];
  const connectionsClosed: Promise<void>[] = [];
  let folder: string;
  let primary: http.Server;
  let worker: http.Server;
  let forwarder: PrimaryForwarder;
  let port: number;

  beforeAll(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'wharf-forward-'));
    const socketPath = path.join(folder, 'primary.sock');
    // The primary as Wharf makes it (createHttpServer): its idle connections are kept 75 s.
    primary = createHttpServer((req, res) => {
      if (cutter.cut(req)) return;
      // A refusal after the first bytes of a body, as an upload's checks give one.
      if (req.url === '/api/v1/refused') return void req.once('data', () => res.end('refused'));
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on('end', () => {
        answered.push(`${req.method} ${req.url} ${body}`.trim());
        res.end('answered');
      });
    });
    primary.on('connection', (socket: Socket) => {
      connectionsClosed.push(new Promise((resolve) => socket.once('close', () => resolve())));
    });
    await new Promise<void>((resolve) => primary.listen(socketPath, resolve));
    forwarder = new PrimaryForwarder(socketPath, trustNobody, pino({ level: 'silent' }));
    worker = createHttpServer((req, res) => forwarder.request(req, res));
    await new Promise<void>((resolve) => worker.listen(0, '127.0.0.1', resolve));
    port = (worker.address() as AddressInfo).port;
  });
  afterAll(async () => {
    forwarder.close();
    worker.close();
    primary.closeAllConnections();
    primary.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('sends a GET again on a new connection when the primary closes the kept-alive one under it', async () => {
    const cutsBefore = cutter.cuts;
    expect(await ask(port, 'GET', '/api/v1/first')).toEqual({ status: 200, text: 'answered' });
    expect(await ask(port, 'GET', '/api/v1/second')).toEqual({ status: 200, text: 'answered' });
    expect(cutter.cuts).toBe(cutsBefore + 1);
    expect(answered.slice(-2)).toEqual(['GET /api/v1/first', 'GET /api/v1/second']);
  });

  it('never sends a POST twice: the client is told to try again', async () => {
    forwarder.close();
    const cutsBefore = cutter.cuts;
    expect(await ask(port, 'GET', '/api/v1/before')).toEqual({ status: 200, text: 'answered' });
    const cut = await ask(port, 'POST', '/api/v1/deploys', '{"name":"once"}');
    expect(cut.status).toBe(503);
    expect(JSON.parse(cut.text)).toMatchObject({ code: 'SERVER_UNAVAILABLE' });
    expect(cutter.cuts).toBe(cutsBefore + 1);
    expect(answered.filter((line) => line.startsWith('POST'))).toEqual([]);
  });

  it('carries the next request on a connection whose upload the primary refused before its body ended', async () => {
    const socket = net.connect(port, '127.0.0.1');
    const body = Buffer.alloc(4 * 1024 * 1024, 'x');
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    socket.write(`POST /api/v1/refused HTTP/1.1\r\nHost: wharf\r\nContent-Length: ${body.length}\r\n\r\n`);
    socket.write(body);
    await expect.poll(() => text, { timeout: 5_000 }).toContain('refused');
    // The rest of the body is all sent, and the next request follows on the same connection.
    await new Promise<void>((resolve) => socket.write('', () => resolve()));
    const startedAt = performance.now();
    socket.write('GET /api/v1/next HTTP/1.1\r\nHost: wharf\r\n\r\n');
    await expect.poll(() => text, { timeout: 10_000 }).toMatch(/refused.*HTTP\/1\.1 200 OK.*answered$/s);
    // Not after a stall: the remainder of the refused body is read and dropped as it comes.
    expect(performance.now() - startedAt).toBeLessThan(2_000);
    socket.destroy();
    expect(answered).toContain('GET /api/v1/next');
  });

  it('lets an idle connection to the primary go long before the primary would close it', async () => {
    const opened = connectionsClosed.length;
    forwarder.close();
    expect(await ask(port, 'GET', '/api/v1/idle')).toEqual({ status: 200, text: 'answered' });
    expect(connectionsClosed.length).toBe(opened + 1);
    // The primary keeps it 75 s: the worker, which lets it go first, never sends on one being closed.
    const closed = await Promise.race([connectionsClosed[opened]!.then(() => 'closed'), sleep(20_000, 'still open')]);
    expect(closed).toBe('closed');
  }, 30_000);
});
