import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.ts';

const TOKEN = 'metrics-access-token';

async function metrics(server: TestServer, headers: Record<string, string> = {}) {
  const answer = await fetch(`${server.url}/metrics`, { headers });
  return { status: answer.status, body: await answer.text() };
}

describe('who may read /metrics', () => {
  let withoutToken: TestServer;
  let withToken: TestServer;

  beforeAll(async () => {
    [withoutToken, withToken] = await Promise.all([
      startTestServer(),
      startTestServer({ env: { WHARF_METRICS_TOKEN: TOKEN } }),
    ]);
  });
  afterAll(() => Promise.all([withoutToken.close(), withToken.close()]));

  it('refuses a loopback caller when no token is configured', async () => {
    const answer = await metrics(withoutToken);
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'METRICS_TOKEN_REQUIRED' });
  });

  it('refuses a loopback caller without the token, also one that claims a forwarded loopback peer', async () => {
    expect((await metrics(withToken)).status).toBe(403);
    expect(
      (await metrics(withToken, { 'x-wharf-peer-address': '127.0.0.1', 'x-forwarded-for': '127.0.0.1' })).status,
    ).toBe(403);
    expect((await metrics(withToken, { authorization: `Bearer ${TOKEN}x` })).status).toBe(403);
    expect((await metrics(withToken, { authorization: TOKEN })).status).toBe(403);
  });

  it('answers whoever sends the token', async () => {
    const answer = await metrics(withToken, { authorization: `Bearer ${TOKEN}` });
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('wharf_console_page_views_total');
  });
});
