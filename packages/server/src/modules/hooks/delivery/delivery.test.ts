import type { Hook, HookDelivery } from '@wharf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus } from '../../../../test/client.ts';
import { startTestServer, type TestServer } from '../../../../test/harness.ts';
import { startReceiver, verifySignature } from '../../../../test/receiver.ts';
import { buildWorld, type World } from '../../../../test/world.ts';

type Receiver = Awaited<ReturnType<typeof startReceiver>>;
type DeliveryData = {
  event: string;
  eventId: string;
  attempt: number;
  final: boolean;
  error: string | null;
  request: { headers: Record<string, string>; body: string };
  response: { status: number } | null;
};

describe('hook deliveries', () => {
  let server: TestServer;
  let world: World;
  const receivers: Receiver[] = [];
  let branchNumber = 0;

  beforeAll(async () => {
    server = await startTestServer({ env: { WHARF_ALLOW_PRIVATE_UPSTREAMS: 'on' } });
    world = await buildWorld(server.url);
  });
  afterAll(async () => {
    await server.close();
    await Promise.all(receivers.map((receiver) => receiver.close()));
  });

  async function receiver(
    answer: Parameters<typeof startReceiver>[0] = () => ({ status: 200 }),
    options: Parameters<typeof startReceiver>[1] = {},
  ) {
    const started = await startReceiver(answer, options);
    receivers.push(started);
    return started;
  }

  async function siteHook(type: Hook['type'], url: string, events = ['site_branch_added']): Promise<Hook> {
    const body = { type, name: `${type} hook`, events, config: { url } };
    return expectStatus(await world.clients.owner.post(`/api/v1/sites/${world.site._id}/hooks`, body), 200);
  }

  async function addBranch() {
    const name = `feature-${++branchNumber}`;
    const release = world.release._id;
    expectStatus(
      await world.clients.owner.post(`/api/v1/sites/${world.site._id}/branches`, { name, releaseId: release }),
      200,
    );
    return name;
  }

  const deliveriesOf = async (hook: Hook) =>
    expectStatus(
      await world.clients.owner.get(`/api/v1/sites/${world.site._id}/hooks/${hook._id}/deliveries?page=0&size=50`),
      200,
    ) as { items: HookDelivery[]; count: number };

  /** The deliveries of a hook once `count` are recorded (they are written just after each answer). */
  async function recorded(hook: Hook, count: number) {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const page = await deliveriesOf(hook);
      if (page.count >= count) return page.items.map((item) => ({ ...item, data: item.data as DeliveryData }));
      if (Date.now() > deadline) throw new Error(`${page.count} deliveries recorded, not ${count}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('posts a signed JSON envelope that a receiver verifies, and refuses when replayed later', async () => {
    const web = await receiver();
    const hook = await siteHook('web', web.url);
    const name = await addBranch();
    const [request] = await web.received(1);
    const envelope = JSON.parse(request!.body);
    expect(envelope).toMatchObject({ event: 'site_branch_added', data: { siteId: world.site._id } });
    expect(Object.keys(envelope).sort()).toEqual(['createdAt', 'data', 'event', 'id']);
    expect(JSON.stringify(envelope.data)).toContain(name);
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['x-wharf-event']).toBe('site_branch_added');

    const now = Math.floor(Date.now() / 1000);
    const signature = request!.headers['x-wharf-signature'] as string;
    expect(verifySignature(hook.config.secret!, signature, request!.body, now)).toBe(true);
    expect(verifySignature('another secret of 32 characters!', signature, request!.body, now)).toBe(false);
    expect(verifySignature(hook.config.secret!, signature, `${request!.body} `, now)).toBe(false);
    // The same request replayed ten minutes later: its signed time is too old.
    expect(verifySignature(hook.config.secret!, signature, request!.body, now + 600)).toBe(false);

    const [delivery] = await recorded(hook, 1);
    expect(request!.headers['x-wharf-delivery']).toBe(delivery!._id);
    expect(delivery).toMatchObject({ success: true, type: 'site_branch_added' });
    expect(delivery!.data).toMatchObject({ attempt: 1, final: true, response: { status: 200 } });
    // The secret is never stored in clear, not even in what the delivery recorded.
    expect(JSON.stringify(delivery)).not.toContain(hook.config.secret);
  });

  it('sends a delivery again at once when the receiver closes the kept-alive connection under it', async () => {
    const web = await receiver(() => ({ status: 200 }), { cutReusedConnections: true });
    const hook = await siteHook('web', web.url);
    await addBranch();
    await web.received(1);
    // The second delivery goes out on the connection the first one left open, which the receiver cuts.
    await addBranch();
    await web.received(2);
    const deliveries = await recorded(hook, 2);
    expect(web.cutter.cuts).toBe(1);
    expect(deliveries.map((d) => [d.data.attempt, d.success, d.data.error])).toEqual([
      [1, true, null],
      [1, true, null],
    ]);
  });

  it('retries 503 and 429 after the Retry-After the receiver gives, and records each attempt', async () => {
    const flaky = await receiver((_, index) =>
      index < 3 ? { status: index === 1 ? 429 : 503, headers: { 'retry-after': '1' }, body: 'busy' } : { status: 204 },
    );
    const hook = await siteHook('web', flaky.url);
    await addBranch();
    await flaky.received(4, 30_000);
    const attempts = (await recorded(hook, 4)).reverse();
    expect(attempts.map((a) => [a.data.attempt, a.success, a.data.response?.status, a.data.final])).toEqual([
      [1, false, 503, false],
      [2, false, 429, false],
      [3, false, 503, false],
      [4, true, 204, true],
    ]);
    // Every attempt carries the same event; each has its own delivery id.
    expect(new Set(flaky.requests.map((r) => JSON.parse(r.body).id)).size).toBe(1);
    expect(new Set(flaky.requests.map((r) => r.headers['x-wharf-delivery'])).size).toBe(4);
  });

  it('stops at a 4xx other than 429: the delivery is final', async () => {
    const gone = await receiver(() => ({ status: 410, body: 'no such hook here' }));
    const hook = await siteHook('web', gone.url);
    await addBranch();
    await gone.received(1);
    const [delivery] = await recorded(hook, 1);
    expect(delivery).toMatchObject({ success: false });
    expect(delivery!.data).toMatchObject({ final: true, error: 'The receiver answered 410' });
    const job = await server.app.db.selectFrom('jobs').selectAll().where('hook_id', '=', hook._id).executeTakeFirst();
    expect(job).toMatchObject({ state: 'failed', attempts: 1 });
  });

  it('speaks the incoming-webhook formats of Slack and Mattermost', async () => {
    const slack = await receiver();
    const mattermost = await receiver();
    await siteHook('slack', slack.url);
    await siteHook('mattermost', mattermost.url);
    await addBranch();
    const [slackMessage] = await slack.received(1);
    const [mattermostMessage] = await mattermost.received(1);
    const console = server.url;
    expect(JSON.parse(slackMessage!.body).text).toMatch(new RegExp(`<${console}/[^|]+\\|Open in Wharf>`));
    expect(JSON.parse(mattermostMessage!.body).text).toMatch(new RegExp(`\\[Open in Wharf\\]\\(${console}/`));
  });

  it('sends a ping on Send test, and the same event again on Redeliver', async () => {
    const web = await receiver();
    const hook = await siteHook('web', web.url);
    const base = `/api/v1/sites/${world.site._id}/hooks/${hook._id}`;
    expectStatus(await world.clients.owner.post(`${base}/test`, {}), 204);
    const [ping] = await web.received(1);
    expect(JSON.parse(ping!.body)).toMatchObject({ event: 'ping', data: { hookId: hook._id } });
    const [first] = await recorded(hook, 1);
    expectStatus(await world.clients.owner.post(`${base}/deliveries/${first!._id}/redeliver`, {}), 204);
    const [, again] = await web.received(2);
    expect(JSON.parse(again!.body).id).toBe(JSON.parse(ping!.body).id);
    expect(again!.headers['x-wharf-delivery']).not.toBe(ping!.headers['x-wharf-delivery']);
    const missing = await world.clients.owner.post(`${base}/deliveries/nope/redeliver`, {});
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('DELIVERY_NOT_FOUND');
  });

  it('lets only those who manage a hook send a test', async () => {
    const web = await receiver();
    const hook = await siteHook('web', web.url);
    const answer = await world.clients.member.post(`/api/v1/sites/${world.site._id}/hooks/${hook._id}/test`, {});
    expect([403, 404]).toContain(answer.status);
    expect(web.requests).toHaveLength(0);
  });
});

describe('hook URLs on a server that keeps private addresses out', () => {
  let server: TestServer;
  let world: World;

  beforeAll(async () => {
    server = await startTestServer();
    world = await buildWorld(server.url);
  });
  afterAll(() => server.close());

  it.each(['http://127.0.0.1:9/hook', 'http://[::1]/hook', 'http://169.254.169.254/latest', 'http://10.0.0.1/x'])(
    'refuses %s when the hook is saved',
    async (url) => {
      const hooks = `/api/v1/sites/${world.site._id}/hooks`;
      const answer = await world.clients.owner.post(hooks, {
        type: 'web',
        name: 'x',
        events: ['site_added'],
        config: { url },
      });
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe('UPSTREAM_NOT_ALLOWED');
      expect(answer.body.details).toEqual([{ field: 'config.url', message: expect.any(String) }]);
      expect(expectStatus(await world.clients.owner.get(hooks), 200)).toEqual([]);
    },
  );
});
