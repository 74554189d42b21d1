import { CLI_TOKEN_DAYS, cliTokenScopes } from '@wharf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, signedIn, TestClient } from '../../../test/client.ts';
import { databases, startTestServer, type TestServer } from '../../../test/harness.ts';
import { eventMark, eventNamesSince } from '../../../test/snapshot.ts';

describe.each(databases)('sign-ins of the wharf command on $name', ({ postgres }) => {
  let server: TestServer;
  let cli: TestClient;
  let owner: TestClient;
  let member: TestClient;

  beforeAll(async () => {
    server = await startTestServer({ postgres });
    cli = new TestClient(server.url);
    owner = await signedIn(server.url, 'owner');
    member = await signedIn(server.url, 'member');
  });
  afterAll(() => server?.close());

  const start = async (machine = 'ada@laptop') => expectStatus(await cli.post('/api/v1/cli-logins', { machine }), 200);
  const poll = (login: { _id: string }, secret: string) =>
    cli.post(`/api/v1/cli-logins/${login._id}/token`, { secret });
  const approve = (client: TestClient, login: { _id: string }) =>
    client.post(`/api/v1/cli-logins/${login._id}/approve`);

  it('starts a request with a console page, a code to compare, and waits while nobody answered', async () => {
    const login = await start();
    expect(login.url).toBe(`${server.url}/cli-login/${login._id}`);
    expect(login.code).toMatch(/^[B-Z]{4}-[B-Z]{4}$/);
    const minutes = (Date.parse(login.expiresAt) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(9.9);
    expect(minutes).toBeLessThanOrEqual(10);
    const seen = expectStatus(await member.get(`/api/v1/cli-logins/${login._id}`), 200);
    expect(seen).toMatchObject({ machine: 'ada@laptop', code: login.code, address: '127.0.0.1', state: 'pending' });
    expect(expectStatus(await poll(login, login.secret), 200)).toEqual({
      state: 'pending',
      expiresAt: login.expiresAt,
    });
  });

  it('hands the approver a token of the CLI scopes to the CLI once, and only to the holder of the secret', async () => {
    const login = await start();
    const before = await eventMark(server.app.db);
    expect(expectStatus(await approve(owner, login), 200).state).toBe('approved');
    expect(await eventNamesSince(server.app.db, before)).toEqual(['user_api_token_created']);

    const wrong = await poll(login, 'not-the-secret');
    expect(wrong.status).toBe(403);
    expect(wrong.body.code).toBe('CLI_LOGIN_SECRET_WRONG');
    const { token } = expectStatus(await poll(login, login.secret), 200);
    expect(token).toMatchObject({ name: 'CLI on ada@laptop', scopes: cliTokenScopes });
    expect((Date.parse(token.expiresAt) - Date.now()) / 86_400_000).toBeCloseTo(CLI_TOKEN_DAYS, 1);
    const user = expectStatus(await cli.withToken(token.value).get('/api/v1/user'), 200);
    expect(user.name).toBe('owner');

    const again = await poll(login, login.secret);
    expect(again.status).toBe(410);
    expect(again.body.code).toBe('CLI_LOGIN_CLAIMED');
    const tokens = expectStatus(await owner.get('/api/v1/api-tokens'), 200);
    expect(tokens.filter((t: { name: string }) => t.name === 'CLI on ada@laptop')).toHaveLength(1);
  });

  it('hands the token again to the poll that took it, sent again with its Idempotency-Key, and to no other', async () => {
    const login = await start('bob@desk');
    expectStatus(await approve(owner, login), 200);
    const keyed = (key: string, secret = login.secret) =>
      cli.request('POST', `/api/v1/cli-logins/${login._id}/token`, { secret }, { 'idempotency-key': key });
    const first = expectStatus(await keyed('poll-7'), 200);
    expect(expectStatus(await keyed('poll-7'), 200)).toEqual(first);
    for (const other of [await keyed('poll-8'), await poll(login, login.secret)])
      expect([other.status, other.body.code]).toEqual([410, 'CLI_LOGIN_CLAIMED']);
    expect((await keyed('poll-7', 'not-the-secret')).status).toBe(403);
    expect((await keyed('two words', 'not-the-secret')).status).toBe(403);
    const malformed = await keyed('two words');
    expect([malformed.status, malformed.body.code]).toEqual([400, 'IDEMPOTENCY_KEY_INVALID']);
    // Once the request has expired, not even that poll gets it.
    await server.app.db
      .updateTable('cli_logins')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', login._id)
      .execute();
    expect((await keyed('poll-7')).status).toBe(410);
    const tokens = expectStatus(await owner.get('/api/v1/api-tokens'), 200);
    expect(tokens.filter((t: { name: string }) => t.name === 'CLI on bob@desk')).toHaveLength(1);
  });

  it('is answered once: a second approval or a cancel after it is refused, and others do not see it', async () => {
    const login = await start();
    expectStatus(await approve(owner, login), 200);
    const twice = await approve(owner, login);
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({ code: 'CLI_LOGIN_ANSWERED', message: 'This sign-in was approved already' });
    expect((await owner.post(`/api/v1/cli-logins/${login._id}/cancel`)).status).toBe(409);
    for (const call of [member.get(`/api/v1/cli-logins/${login._id}`), approve(member, login)]) {
      const answer = await call;
      expect(answer.status).toBe(404);
      expect(answer.body.code).toBe('CLI_LOGIN_NOT_FOUND');
    }
  });

  it('tells the CLI when the sign-in was cancelled, and makes no token', async () => {
    const login = await start();
    const before = await eventMark(server.app.db);
    const cancelled = expectStatus(await member.post(`/api/v1/cli-logins/${login._id}/cancel`), 200);
    expect(cancelled.state).toBe('cancelled');
    expect(await eventNamesSince(server.app.db, before)).toEqual([]);
    const answer = await poll(login, login.secret);
    expect(answer.status).toBe(410);
    expect(answer.body.code).toBe('CLI_LOGIN_CANCELLED');
    expect((await approve(member, login)).body.code).toBe('CLI_LOGIN_ANSWERED');
  });

  it('refuses to approve or hand over an expired request', async () => {
    const login = await start();
    await server.app.db
      .updateTable('cli_logins')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', login._id)
      .execute();
    const late = await approve(owner, login);
    expect(late.status).toBe(410);
    expect(late.body.code).toBe('CLI_LOGIN_EXPIRED');
    const polled = await poll(login, login.secret);
    expect(polled.status).toBe(410);
    expect(polled.body.code).toBe('CLI_LOGIN_EXPIRED');
  });

  it('lets only a signed-in person see, approve or cancel a request: never a signed-out caller or a token', async () => {
    const login = await start();
    const allScopes = expectStatus(
      await owner.post('/api/v1/api-tokens', { name: 'everything', scopes: cliTokenScopes }),
      200,
    );
    const byToken = cli.withToken(allScopes.value);
    for (const path of ['', '/approve', '/cancel']) {
      const method = path ? 'POST' : 'GET';
      const anonymous = await cli.request(method, `/api/v1/cli-logins/${login._id}${path}`);
      expect(anonymous.status).toBe(401);
      expect(anonymous.body.code).toBe('SIGN_IN_REQUIRED');
      const token = await byToken.request(method, `/api/v1/cli-logins/${login._id}${path}`);
      expect(token.status).toBe(403);
      expect(token.body.code).toBe('TOKEN_KIND_REFUSED');
    }
    expect(expectStatus(await poll(login, login.secret), 200).state).toBe('pending');
  });

  it('refuses a machine name with line breaks, a poll without its secret, and an unknown request', async () => {
    const badName = await cli.post('/api/v1/cli-logins', { machine: 'ada@laptop\nApprove me' });
    expect(badName.status).toBe(400);
    expect(badName.body.details[0].field).toBe('machine');
    const login = await start();
    expect((await cli.post(`/api/v1/cli-logins/${login._id}/token`, {})).status).toBe(400);
    const unknown = await poll({ _id: 'unknown0000000000' }, login.secret);
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('CLI_LOGIN_NOT_FOUND');
  });
});

describe('the token a sign-in of the wharf command made', () => {
  let server: TestServer;
  let owner: TestClient;

  beforeAll(async () => {
    server = await startTestServer();
    owner = await signedIn(server.url, 'owner');
  });
  afterAll(() => server?.close());

  it('reads and deletes itself, whatever its scopes, and no other token', async () => {
    const own = expectStatus(await owner.post('/api/v1/api-tokens', { name: 'cli', scopes: [] }), 200);
    const other = expectStatus(await owner.post('/api/v1/api-tokens', { name: 'other', scopes: [] }), 200);
    const tokenClient = new TestClient(server.url, own.value);
    expect(expectStatus(await tokenClient.get(`/api/v1/api-tokens/${own._id}`), 200).name).toBe('cli');
    for (const answer of [
      await tokenClient.get(`/api/v1/api-tokens/${other._id}`),
      await tokenClient.delete(`/api/v1/api-tokens/${other._id}`),
      await tokenClient.put(`/api/v1/api-tokens/${own._id}`, {
        name: 'wider',
        activatesAt: own.activatesAt,
        expiresAt: null,
        scopes: ['site_delete'],
      }),
      await tokenClient.get('/api/v1/api-tokens'),
    ]) {
      expect(answer.status).toBe(403);
      expect(answer.body.code).toBe('TOKEN_KIND_REFUSED');
    }
    expectStatus(await tokenClient.delete(`/api/v1/api-tokens/${own._id}`), 204);
    const after = await tokenClient.get(`/api/v1/api-tokens/${own._id}`);
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('TOKEN_INVALID');
    expect(expectStatus(await owner.get(`/api/v1/api-tokens/${other._id}`), 200).name).toBe('other');
  });

  it('limits the sign-ins one address starts', async () => {
    const anonymous = new TestClient(server.url);
    for (let started = 0; started < 100; started++)
      expectStatus(await anonymous.post('/api/v1/cli-logins', { machine: 'busy@host' }), 200);
    const refused = await anonymous.post('/api/v1/cli-logins', { machine: 'busy@host' });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('RATE_LIMITED');
  });
});
