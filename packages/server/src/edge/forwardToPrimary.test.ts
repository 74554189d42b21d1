import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reusedConnectionCutter } from '../../test/reusedConnections.ts';
import { createHttpServer } from '../http/httpServer.ts';
import { trustNobody } from '../http/trustProxy.ts';
import { PrimaryForwarder } from './forwardToPrimary.ts';

/** One request to the worker on a connection of its own: only the worker's to the primary are reused. */
function ask(port: number, method: string, urlPath: string, body?: string) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, method, path: urlPath, agent: false }, (answer) => {
      let text = '';
      answer.on('data', (chunk: Buffer) => {
        text += chunk.toString();
      });
      answer.on('end', () => resolve({ status: answer.statusCode ?? 0, text }));
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
    worker = http.createServer((req, res) => forwarder.request(req, res));
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
