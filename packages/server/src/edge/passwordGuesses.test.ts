import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus } from '../../test/client.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { basic, siteRequest } from '../../test/siteClient.ts';
import { buildWorld } from '../../test/world.ts';

describe('guessing the password of a protected site', () => {
  let server: TestServer;
  let get: (authorization: string) => Promise<{ status: number; ms: number }>;

  beforeAll(async () => {
    server = await startTestServer();
    const world = await buildWorld(server.url);
    expectStatus(
      await world.clients.owner.put(`/api/v1/sites/${world.site._id}/password`, { password: 'letmein' }),
      200,
    );
    const port = Number(new URL(server.url).port);
    get = async (authorization) => {
      const started = performance.now();
      const answer = await siteRequest(port, `${world.site.name}.localhost:${port}`, '/', {
        headers: { authorization },
      });
      return { status: answer.status, ms: performance.now() - started };
    };
  });
  afterAll(() => server.close());

  it('queues parallel guesses behind growing delays, and still lets the right password in', async () => {
    const guesses = await Promise.all(Array.from({ length: 10 }, (_, i) => get(basic('user', `guess${i}`))));
    expect(guesses.map((guess) => guess.status)).toEqual(Array(10).fill(401));
    // Checked one after another, each failure doubling the wait from 50 ms up to 3 s: 12 s in all.
    expect(Math.max(...guesses.map((guess) => guess.ms))).toBeGreaterThanOrEqual(5_000);
    expect((await get(basic('user', 'one more guess'))).status).toBe(401);
    const right = await get(basic('user', 'letmein'));
    expect(right.status).toBe(200);
    expect(right.ms).toBeGreaterThanOrEqual(2_500);
    expect((await get(basic('user', 'letmein'))).status).toBe(200);
  }, 90_000);
});
