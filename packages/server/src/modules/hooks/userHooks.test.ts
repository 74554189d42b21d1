import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { userEvents } from '@wharf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, type TestClient } from '../../../test/client.ts';
import { databases, startTestServer, type TestServer } from '../../../test/harness.ts';
import { buildWorld, type World } from '../../../test/world.ts';

const HOOKS = '/api/v1/user/hooks';

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A web hook receiver on the loopback: it keeps what it was sent and answers 200. */
async function startReceiver() {
  const received: Received[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString() });
      response.writeHead(200, { 'content-type': 'text/plain' }).end('thanks');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, received, close: () => server.close() };
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.each(databases)("the user's own hooks on $name", ({ postgres }) => {
  let server: TestServer;
  let world: World;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    // The receiver is on the loopback, which only an operator's setting lets Wharf call.
    server = await startTestServer({ postgres, env: { WHARF_ALLOW_PRIVATE_UPSTREAMS: 'on' } });
    world = await buildWorld(server.url);
    receiver = await startReceiver();
  });
  afterAll(async () => {
    receiver?.close();
    await server?.close();
  });

  const slack = (name: string) => ({
    type: 'slack',
    name,
    events: ['user_api_token_created'],
    config: { url: 'https://hooks.example.com/user' },
  });

  async function userId(client: TestClient) {
    return expectStatus(await client.get('/api/v1/user'), 200)._id as string;
  }

  it('offers the user events, and only them', async () => {
    expect(expectStatus(await world.clients.member.get('/api/v1/user/hook-events'), 200)).toEqual([
      ...userEvents,
      'org_created',
    ]);
  });

  it('keeps a hook as the signed-in user’s own (context users, owner the user) and lists only theirs', async () => {
    const hook = expectStatus(await world.clients.member.post(HOOKS, slack('mine')), 200);
    const row = await server.app.db
      .selectFrom('hooks')
      .select(['context', 'owner_id'])
      .where('id', '=', hook._id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ context: 'users', owner_id: await userId(world.clients.member) });

    const mine = expectStatus(await world.clients.member.get(HOOKS), 200);
    expect(mine.map((h: { _id: string }) => h._id)).toContain(hook._id);
    const theirs = expectStatus(await world.clients.admin.get(HOOKS), 200);
    expect(theirs.map((h: { _id: string }) => h._id)).not.toContain(hook._id);
    expect(expectStatus(await world.clients.member.get(`${HOOKS}/${hook._id}`), 200).name).toBe('mine');
  });

  it("answers 404 for another user's hook, whatever the call, and changes nothing", async () => {
    const hook = expectStatus(await world.clients.member.post(HOOKS, slack('private')), 200);
    const other = world.clients.outsider;
    const one = `${HOOKS}/${hook._id}`;
    const answers = [
      await other.get(one),
      await other.put(one, slack('taken')),
      await other.delete(one),
      await other.get(`${one}/deliveries?page=0&size=10`),
      await other.post(`${one}/test`),
      await other.post(`${one}/deliveries/unknown0000000000/redeliver`),
    ];
    expect(answers.map((answer) => [answer.status, answer.body?.code])).toEqual(
      answers.map(() => [404, 'HOOK_NOT_FOUND']),
    );
    expect(expectStatus(await world.clients.member.get(one), 200).name).toBe('private');
  });

  it('refuses events that do not happen to the user', async () => {
    const answer = await world.clients.member.post(HOOKS, { ...slack('wrong'), events: ['org_updated'] });
    expect(answer.status).toBe(400);
    expect(answer.body.details).toEqual([
      { field: 'events', message: "Not an event of this hook's owner: org_updated" },
    ]);
    const update = await world.clients.owner.post(`/api/v1/sites/${world.site._id}/hooks`, {
      ...slack('site'),
      events: ['user_api_token_created'],
    });
    expect(update.status).toBe(400);
  });

  it('lets an API token in with the scope only, and never a site token', async () => {
    const scoped = expectStatus(
      await world.clients.teammate.post('/api/v1/api-tokens', { name: 'hooks', scopes: ['user_hook_list'] }),
      200,
    );
    const bare = expectStatus(
      await world.clients.teammate.post('/api/v1/api-tokens', { name: 'bare', scopes: [] }),
      200,
    );
    expect((await world.clients.anonymous.withToken(scoped.value).get(HOOKS)).status).toBe(200);
    const missing = await world.clients.anonymous.withToken(bare.value).get(HOOKS);
    expect([missing.status, missing.body.code]).toEqual([403, 'TOKEN_SCOPE_MISSING']);
    const site = expectStatus(
      await world.clients.owner.post(`/api/v1/sites/${world.site._id}/tokens`, { name: 'ci' }),
      200,
    );
    const refused = await world.clients.anonymous.withToken(site.value).get(HOOKS);
    expect([refused.status, refused.body.code]).toEqual([403, 'TOKEN_KIND_REFUSED']);
  });

  it("delivers the user's own events to their web hook, with each attempt in its deliveries", async () => {
    const client = world.clients.admin;
    const hook = expectStatus(
      await client.post(HOOKS, {
        type: 'web',
        name: 'tokens',
        events: ['user_api_token_created'],
        config: { url: receiver.url },
      }),
      200,
    );
    const token = expectStatus(await client.post('/api/v1/api-tokens', { name: 'deploys', scopes: [] }), 200);
    const sent = await until('the token event', async () =>
      receiver.received.find((r) => JSON.parse(r.body).data?.tokenId === token._id),
    );
    expect(sent.headers['x-wharf-event']).toBe('user_api_token_created');
    expect(JSON.parse(sent.body).data.userId).toBe(await userId(client));

    // Another user's token is not theirs to hear of.
    const otherToken = expectStatus(
      await world.clients.member.post('/api/v1/api-tokens', { name: 'x', scopes: [] }),
      200,
    );
    expectStatus(await client.post(`${HOOKS}/${hook._id}/test`), 204);
    const deliveries = await until('the test delivery', async () => {
      const page = expectStatus(await client.get(`${HOOKS}/${hook._id}/deliveries?page=0&size=10`), 200);
      return page.items.some((d: { type: string }) => d.type === 'ping') ? page : undefined;
    });
    expect(deliveries.items.map((d: { type: string }) => d.type)).toEqual(['ping', 'user_api_token_created']);
    expect(deliveries.items[1]).toMatchObject({
      success: true,
      data: { event: 'user_api_token_created', attempt: 1, final: true, response: { status: 200 } },
    });
    expect(receiver.received.some((r) => JSON.parse(r.body).data?.tokenId === otherToken._id)).toBe(false);
  });
});
