import { eventNames, type Hook, hookEventsByContext } from '@wharf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus } from '../../../../test/client.ts';
import { everyOrgEvent, sweepRepository } from '../../../../test/everyEvent.ts';
import { SWEEP_TIMEOUT, startTestServer, type TestServer } from '../../../../test/harness.ts';
import { startReceiver } from '../../../../test/receiver.ts';
import { type SmtpPeer, startSmtpPeer } from '../../../../test/smtpPeer.ts';
import { buildWorld, type World } from '../../../../test/world.ts';

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** Waits until `heard()` holds every name, or fails naming those that never came. */
async function hearsAll(names: readonly string[], heard: () => Promise<Set<string>>, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const got = await heard();
    const missing = names.filter((name) => !got.has(name));
    if (missing.length === 0) return;
    if (Date.now() > deadline) throw new Error(`never delivered: ${missing.join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The proof: every event of the organization's list reaches a subscribed hook of each
 * kind, over real connections (HTTP receivers on loopback, an SMTP peer).
 */
describe('every event, to every kind of hook', () => {
  let server: TestServer;
  let world: World;
  let smtp: SmtpPeer;
  let repository: Awaited<ReturnType<typeof sweepRepository>>;
  const receivers: Record<'web' | 'slack' | 'mattermost', Receiver> = {} as never;
  // An organization's hooks hear all that happens in it; its creation and API tokens, its user's.
  const events = eventNames;

  beforeAll(async () => {
    smtp = await startSmtpPeer();
    for (const type of ['web', 'slack', 'mattermost'] as const)
      receivers[type] = await startReceiver(() => ({ status: 200 }));
    repository = await sweepRepository();
    server = await startTestServer({
      env: { WHARF_ALLOW_PRIVATE_UPSTREAMS: 'on', SMTP_URL: smtp.url, ...repository.env },
    });
    world = await buildWorld(server.url);
    const { owner } = world.clients;
    const subscribe = async (type: Hook['type'], config: Record<string, string>) => {
      for (const [path, context] of [
        [`/api/v1/orgs/${world.org._id}/hooks`, 'orgs'],
        ['/api/v1/user/hooks', 'users'],
      ] as const) {
        const body = { type, name: `all by ${type}`, events: hookEventsByContext[context], config };
        expectStatus(await owner.post(path, body), 200);
      }
    };
    for (const type of ['web', 'slack', 'mattermost'] as const) await subscribe(type, { url: receivers[type].url });
    await subscribe('email', { to: 'ops@example.com' });
    await everyOrgEvent(world, repository);
    expectStatus(await owner.post('/api/v1/orgs', { name: 'Second' }), 200);
    const token = expectStatus(await owner.post('/api/v1/api-tokens', { name: 'ci', scopes: [] }), 200);
    const changed = { name: 'ci, renamed', activatesAt: token.activatesAt, expiresAt: null, scopes: [] };
    expectStatus(await owner.put(`/api/v1/api-tokens/${token._id}`, changed), 200);
    expectStatus(await owner.delete(`/api/v1/api-tokens/${token._id}`), 204);
  }, SWEEP_TIMEOUT);
  afterAll(async () => {
    await server?.close();
    await Promise.all(Object.values(receivers).map((receiver) => receiver.close()));
    await smtp?.close();
    await repository?.close();
  });

  it(
    'posts every event to a web hook',
    async () => {
      await hearsAll(
        events,
        async () => new Set(receivers.web.requests.map((r) => r.headers['x-wharf-event'] as string)),
      );
    },
    SWEEP_TIMEOUT,
  );

  it(
    'tells Slack and Mattermost of every event, each in its own sentence',
    async () => {
      // The hook's deliveries say which event each message was: the message itself is for people.
      for (const type of ['slack', 'mattermost'] as const) {
        const hooks = await hooksOf(type);
        await hearsAll(events, () => deliveredEvents(hooks));
        const texts = receivers[type].requests.map((r) => JSON.parse(r.body).text as string);
        // Whole words only: the ids in the links are random letters and digits, which may spell 'null'.
        expect(texts.filter((text) => /\b(?:undefined|null)\b|caused the event/.test(text))).toEqual([]);
      }
    },
    SWEEP_TIMEOUT,
  );

  it(
    'mails every event to an email hook',
    async () => {
      const hooks = await hooksOf('email');
      await hearsAll(events, () => deliveredEvents(hooks));
      const mails = smtp.received.filter((mail) => mail.to.includes('ops@example.com'));
      expect(mails.length).toBeGreaterThanOrEqual(events.length);
      expect(mails.every((mail) => mail.headers.subject?.startsWith('[Wharf] '))).toBe(true);
    },
    SWEEP_TIMEOUT,
  );

  /** The organization's and the user's hook of a kind. */
  async function hooksOf(type: Hook['type']): Promise<string[]> {
    const lists = await Promise.all(
      [`/api/v1/orgs/${world.org._id}/hooks`, '/api/v1/user/hooks'].map(async (path) =>
        expectStatus(await world.clients.owner.get(path), 200),
      ),
    );
    return (lists.flat() as Hook[]).filter((hook) => hook.name === `all by ${type}`).map((hook) => hook._id);
  }

  /** The events delivered to these hooks so far. */
  async function deliveredEvents(hookIds: string[]): Promise<Set<string>> {
    const rows = await server.app.db
      .selectFrom('hook_deliveries')
      .select('type')
      .where('hook_id', 'in', hookIds)
      .where('success', '=', 1)
      .execute();
    return new Set(rows.map((row) => row.type));
  }
});
