import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reusedConnectionCutter } from '../../test/reusedConnections.ts';
import { OutboundGuard } from './guard.ts';
import { emptyAllowList } from './privateAllowList.ts';
import { sendOutbound } from './request.ts';

const readAll = async (answer: http.IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of answer) chunks.push(chunk as Buffer);
  return { status: answer.statusCode, body: Buffer.concat(chunks).toString() };
};

describe('outbound requests on kept-alive connections', () => {
  const cutter = reusedConnectionCutter();
  let upstream: http.Server;
  let url: URL;
  let guard: OutboundGuard;

  beforeAll(async () => {
    upstream = http.createServer((req, res) => {
      if (cutter.cut(req)) return;
      req.resume();
      req.on('end', () => res.end(`${req.method} answered`));
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    url = new URL(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}/`);
  });
  afterAll(() => {
    upstream.closeAllConnections();
    upstream.close();
  });

  // A guard of its own per test: each starts without kept-alive connections.
  const freshGuard = () => {
    guard?.close();
    guard = new OutboundGuard({
      allowPrivate: true,
      allowList: emptyAllowList('WHARF_PROXY_ALLOWED_PRIVATE'),
      log: { warn: () => {} },
      extraCaCerts: [],
    });
    return guard;
  };
  const twice = async (request: Omit<Parameters<typeof sendOutbound>[1], 'url'>) => {
    const outbound = freshGuard();
    const first = await readAll(await sendOutbound(outbound, { url, ...request }));
    const second = await sendOutbound(outbound, { url, ...request }).then(readAll, (error: Error) => error);
    return { first, second };
  };

  it('sends a GET again on a new connection when the reused one is closed under it', async () => {
    const cutsBefore = cutter.cuts;
    const { second } = await twice({ method: 'GET', headers: {} });
    expect(second).toEqual({ status: 200, body: 'GET answered' });
    expect(cutter.cuts).toBe(cutsBefore + 1);
  });

  it('sends a POST again only when the caller says repeating it is harmless', async () => {
    const refused = await twice({ method: 'POST', headers: {}, body: 'x' });
    expect(refused.second).toMatchObject({ code: 'ECONNRESET' });
    const repeated = await twice({ method: 'POST', headers: {}, body: 'x', repeatable: true });
    expect(repeated.second).toEqual({ status: 200, body: 'POST answered' });
  });

  it('never sends a streamed body twice', async () => {
    const outbound = freshGuard();
    await sendOutbound(outbound, { url, method: 'PUT', headers: {}, body: 'one' }).then(readAll);
    const second = await sendOutbound(outbound, { url, method: 'PUT', headers: {}, body: Readable.from(['two']) }).then(
      readAll,
      (error: Error) => error,
    );
    expect(second).toMatchObject({ code: 'ECONNRESET' });
  });

  it('sends it again on a new connection, not on another idle one the server may close as well', async () => {
    const outbound = freshGuard();
    await Promise.all([0, 1].map(() => sendOutbound(outbound, { url, method: 'GET', headers: {} }).then(readAll)));
    const cutsBefore = cutter.cuts;
    const third = await sendOutbound(outbound, { url, method: 'GET', headers: {} }).then(readAll);
    expect(third).toEqual({ status: 200, body: 'GET answered' });
    expect(cutter.cuts).toBe(cutsBefore + 1);
  });
});
