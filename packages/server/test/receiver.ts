import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { reusedConnectionCutter } from './reusedConnections.ts';

/** A request a receiver got: what a hook sent. */
export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  /** What the receiver answered. */
  status: number;
}

type Answer = { status: number; headers?: Record<string, string>; body?: string };

/**
 * Checks `X-Wharf-Signature` as a receiver would, written from the README's description rather
 * than from Wharf's code: HMAC-SHA256 of "<t>.<body>" with the secret, and `t` within 5 minutes.
 */
export function verifySignature(secret: string, header: string | undefined, body: string, nowSeconds: number) {
  const fields = new Map((header ?? '').split(',').map((part) => part.split('=', 2) as [string, string]));
  const time = Number(fields.get('t'));
  if (!Number.isInteger(time) || Math.abs(nowSeconds - time) > 300) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(`${time}.${body}`).digest('hex'));
  const given = Buffer.from(fields.get('v1') ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** An HTTP receiver on loopback that records every request it answers, as `answer` says. */
export async function startReceiver(
  answer: (received: Omit<Received, 'status'>, index: number) => Answer | Promise<Answer>,
  options: { cutReusedConnections?: boolean } = {},
) {
  const requests: Received[] = [];
  const waiters = new Set<() => void>();
  const cutter = reusedConnectionCutter();
  const server = http.createServer((req, res) => {
    // See reusedConnectionCutter: what a receiver closing idle connections does at the worst moment.
    if (options.cutReusedConnections && cutter.cut(req)) return;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const got = { headers: req.headers, body: Buffer.concat(chunks).toString() };
      // A request left unanswered (an answer that never comes) is not recorded.
      const reply = await answer(got, requests.length);
      requests.push({ ...got, status: reply.status });
      res.writeHead(reply.status, reply.headers ?? {}).end(reply.body ?? '');
      for (const wake of waiters) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    requests,
    cutter,
    /** Resolves once `count` requests arrived, or fails after `timeoutMs`. */
    async received(count: number, timeoutMs = 20_000): Promise<Received[]> {
      const deadline = Date.now() + timeoutMs;
      while (requests.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`the receiver got ${requests.length} requests, not ${count}`);
        await new Promise<void>((resolve) => {
          const wake = () => {
            clearTimeout(timer);
            waiters.delete(wake);
            resolve();
          };
          const timer = setTimeout(wake, left);
          waiters.add(wake);
        });
      }
      return requests;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
