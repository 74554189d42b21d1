import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedIn, TestClient } from '../../../test/client.ts';
import { startTestServer, type TestServer, type TestServerOptions, testUsersSetting } from '../../../test/harness.ts';
import { wharfServer } from '../../../test/wharfServerCommand.ts';
import { randomString } from '../../lib/ids.ts';

let lastAddress = 0;
/** An address no other attempt came from, forwarded by the test's trusted proxy (loopback). */
const nextAddress = () => `198.51.100.${++lastAddress}`;

async function timed<T>(send: () => Promise<T>) {
  const started = performance.now();
  const answer = await send();
  return Object.assign(answer as object, { ms: performance.now() - started }) as T & { ms: number };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const signInTo = (url: string, user: string, password: string, from: string) =>
  new TestClient(url).request('POST', '/auth/in-memory', { user, password }, { 'x-forwarded-for': from });

/**
 * The median time of refusing a wrong password for a known name and for unknown ones, each try
 * from a fresh address; the known name signs in between tries, so no penalty adds to its time.
 */
async function costOfNames(url: string, known: string, password: string) {
  const knownMs: number[] = [];
  const unknownMs: number[] = [];
  for (let i = 0; i < 5; i++) {
    const refusedKnown = await timed(() => signInTo(url, known, 'wrong', nextAddress()));
    expect(refusedKnown.status).toBe(401);
    knownMs.push(refusedKnown.ms);
    expect((await signInTo(url, known, password, nextAddress())).status).toBe(200);
    const refusedUnknown = await timed(() => signInTo(url, `nobody-${randomString(8)}`, 'wrong', nextAddress()));
    expect(refusedUnknown.status).toBe(401);
    unknownMs.push(refusedUnknown.ms);
  }
  return { known: median(knownMs), unknown: median(unknownMs) };
}

/**
 * The leak this guards against is a 40-fold gap (3 ms for an unknown name, 140 ms for a known
 * one). Medians of a busy machine running other suites side by side still wander, so the bound
 * is a factor of 4 either way: far inside the leak, far outside the noise.
 */
function expectSameCost(cost: { known: number; unknown: number }) {
  expect(cost.unknown).toBeGreaterThan(cost.known / 4);
  expect(cost.unknown).toBeLessThan(cost.known * 4);
}

describe('sign-in', () => {
  let server: TestServer;
  const signIn = (user: string, password: string, from: string) => signInTo(server.url, user, password, from);
  beforeAll(async () => {
    const users = await testUsersSetting({ defaultCost: true });
    server = await startTestServer({ env: { WHARF_TRUST_PROXY: 'loopback', WHARF_USERS: users } });
  });
  afterAll(() => server.close());

  it('lists the in-memory method when users are configured', async () => {
    const answer = await new TestClient(server.url).get('/auth/methods');
    expect(answer.body).toEqual(['in-memory']);
  });

  it('opens a session in an httpOnly SameSite=Lax cookie and answers the user', async () => {
    const client = new TestClient(server.url);
    const answer = await client.post('/auth/in-memory', { user: 'member', password: 'password' });
    expect(answer.status).toBe(200);
    expect(answer.body.name).toBe('member');
    const cookie = answer.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/wharf_session=/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect((await client.get('/api/v1/user')).body.name).toBe('member');
  });

  it('refuses a wrong password without saying which part was wrong', async () => {
    const answer = await new TestClient(server.url).post('/auth/in-memory', { user: 'member', password: 'nope' });
    expect(answer.status).toBe(401);
    expect(answer.body.message).toBe('Wrong user name or password');
  });

  it('lets the right password in after ten wrong ones, each failure having made the next wait longer', async () => {
    const from = nextAddress();
    const took: number[] = [];
    for (let i = 0; i < 10; i++) {
      const answer = await timed(() => signIn('teammate', `guess${i}`, from));
      expect(answer.status).toBe(401);
      took.push(answer.ms);
    }
    // Nine failures of the name and the address: 50 ms doubled eight times, held at 3 s.
    expect(took[9]).toBeGreaterThanOrEqual(2_500);
    expect(took[9]).toBeGreaterThan(took[0]! * 2);
    const right = await timed(() => signIn('teammate', 'password', from));
    expect(right.status).toBe(200);
    expect(right.ms).toBeGreaterThanOrEqual(2_500);
  }, 90_000);

  it('queues guesses one address sends in parallel behind each other’s delays', async () => {
    const from = nextAddress();
    const answers = await Promise.all(
      Array.from({ length: 7 }, (_, i) => timed(() => signIn(`nobody-parallel-${i}`, 'guess', from))),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(7).fill(401));
    // Checked one after another, waiting 0, 50, 100, 200, 400, 800 and 1,600 ms: 3.15 s at least.
    expect(Math.max(...answers.map((answer) => answer.ms))).toBeGreaterThanOrEqual(2_500);
  }, 90_000);

  it('lets the owner of a name in while a flood of guesses at it from many addresses is under way', async () => {
    const flood = Array.from({ length: 24 }, (_, i) => signIn('joiner', `guess${i}`, nextAddress()));
    const right = await timed(() => signIn('joiner', 'password', nextAddress()));
    expect(right.status).toBe(200);
    expect((await Promise.all(flood)).map((answer) => answer.status)).toEqual(Array(24).fill(401));
  }, 90_000);

  it('slows a name wherever its guesses come from, and an address (an IPv6 /64) whatever names it tries, until the name’s owner signs in', async () => {
    // An IPv6 client picks its addresses from a /64: its failures count together.
    const from = (host: number) => `2001:db8:7:7::${host}`;
    for (let i = 0; i < 6; i++) expect((await signIn(`nobody-${i}`, 'guess', from(i + 1))).status).toBe(401);
    for (let i = 0; i < 6; i++) expect((await signIn('outsider', `guess${i}`, nextAddress())).status).toBe(401);
    const finished: string[] = [];
    const attempt = (label: string, user: string, address: string, password = 'guess') =>
      signIn(user, password, address).then((answer) => {
        finished.push(label);
        return answer.status;
      });
    await Promise.all([
      attempt('penalised address', 'nobody-else', from(99)),
      attempt('penalised name', 'outsider', nextAddress()),
      attempt('fresh name and address', 'nobody-at-all', nextAddress()),
    ]);
    expect(finished[0]).toBe('fresh name and address');
    expect(await attempt('owner of the name', 'outsider', nextAddress(), 'password')).toBe(200);
    finished.length = 0;
    await Promise.all([
      attempt('penalised address', 'nobody-else', from(99)),
      attempt('cleared name', 'outsider', nextAddress()),
    ]);
    expect(finished).toEqual(['cleared name', 'penalised address']);
  }, 90_000);

  it('takes as long to refuse an unknown name as a known one', async () => {
    const cost = await costOfNames(server.url, 'outsider', 'password');
    expectSameCost(cost);
  }, 90_000);

  it('signs out: the session no longer works', async () => {
    const client = await signedIn(server.url, 'admin');
    const cookieClient = client;
    expect((await cookieClient.post('/auth/signout')).status).toBe(204);
    expect((await cookieClient.get('/api/v1/user')).status).toBe(401);
  });

  it('disconnects every device of the user, and only of that user', async () => {
    const laptop = await signedIn(server.url, 'owner');
    const phone = await signedIn(server.url, 'owner');
    const someoneElse = await signedIn(server.url, 'outsider');
    expect((await laptop.put('/api/v1/user/disconnect')).status).toBe(204);
    expect((await phone.get('/api/v1/user')).status).toBe(401);
    expect((await someoneElse.get('/api/v1/user')).status).toBe(200);
  });

  it('refuses cookie-authenticated mutations from another origin', async () => {
    const client = await signedIn(server.url, 'owner');
    const foreign = await client.request('POST', '/api/v1/orgs', { name: 'Evil' }, { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.body.message).toBe('Cross-origin request refused');
    const own = await client.request('POST', '/api/v1/orgs', { name: 'Fine' }, { origin: server.url });
    expect(own.status).toBe(200);
  });
});

/** The test users without `admin`: your own users, beside the first-start one. */
const usersButAdmin = async () =>
  (await testUsersSetting())
    .split(',')
    .filter((entry) => !entry.startsWith('admin:'))
    .join(',');

describe('first start', () => {
  it('creates an admin whose random password is printed once and works', async () => {
    const server = await startTestServer({ withoutUsers: true, captureLog: true });
    try {
      const line = server.logLines.find((l) => l.includes('First start'));
      const password = line && JSON.parse(line).password;
      expect(password).toMatch(/^\S{16,}$/);
      const client = new TestClient(server.url);
      expect((await client.post('/auth/in-memory', { user: 'admin', password })).status).toBe(200);
      const stored = await server.app.db.selectFrom('password_logins').selectAll().execute();
      expect(stored.map((row) => row.password_hash.includes(password))).toEqual([false]);
    } finally {
      await server.close();
    }
  });

  it('keeps the first admin signing in beside WHARF_USERS, and hands its account and organizations to one of them', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'wharf-hand-over-'));
    const restart = async (options: TestServerOptions) => startTestServer({ dataDir, captureLog: true, ...options });
    try {
      let server = await restart({ withoutUsers: true });
      const line = server.logLines.find((l) => l.includes('First start'));
      const adminPassword = line && JSON.parse(line).password;
      let admin = new TestClient(server.url);
      await admin.post('/auth/in-memory', { user: 'admin', password: adminPassword });
      const org = (await admin.post('/api/v1/orgs', { name: 'Made by admin' })).body;
      await server.close();

      // Your own users configured: admin still gets in, and what it made is still there.
      server = await restart({ env: { WHARF_USERS: await usersButAdmin() } });
      admin = new TestClient(server.url);
      expect((await admin.post('/auth/in-memory', { user: 'admin', password: adminPassword })).status).toBe(200);
      expect((await admin.get('/api/v1/orgs')).body.map((o: { _id: string }) => o._id)).toEqual([org._id]);
      const users = { WHARF_USERS: await usersButAdmin(), ...server.dataEnv };

      const refused = await wharfServer(['hand-over-admin', 'nobody'], users);
      expect(refused).toMatchObject({ code: 1, output: expect.stringContaining('WHARF_USERS does not list "nobody"') });
      const handed = await wharfServer(['hand-over-admin', 'owner'], users);
      expect(handed.output).toContain('"owner" now signs in to the first admin\'s account (1 organization)');
      expect(handed.code).toBe(0);
      // Its sessions end with it, and the generated password opens nothing any more.
      expect((await admin.get('/api/v1/user')).status).toBe(401);
      expect((await admin.post('/auth/in-memory', { user: 'admin', password: adminPassword })).status).toBe(401);
      const owner = await signedIn(server.url, 'owner');
      const orgs = (await owner.get('/api/v1/orgs')).body;
      expect(orgs.map((o: { _id: string }) => o._id)).toEqual([org._id]);
      expect((await owner.get('/api/v1/user')).body.name).toBe('owner');
      await server.close();

      const again = await wharfServer(['hand-over-admin', 'member'], users);
      expect(again).toMatchObject({ code: 1, output: expect.stringContaining('no first-start "admin"') });
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it('refuses to hand the first admin to a user who has an account already', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'wharf-hand-over-'));
    try {
      const first = await startTestServer({ dataDir, withoutUsers: true, captureLog: true });
      await first.close();
      const users = { WHARF_USERS: await usersButAdmin() };
      const server = await startTestServer({ dataDir, env: users });
      await signedIn(server.url, 'owner');
      const refused = await wharfServer(['hand-over-admin', 'owner'], { ...users, ...server.dataEnv });
      expect(refused).toMatchObject({ code: 1, output: expect.stringContaining('"owner" has signed in already') });
      await server.close();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it('takes as long to refuse an unknown name as the stored admin', async () => {
    const server = await startTestServer({
      withoutUsers: true,
      captureLog: true,
      env: { WHARF_TRUST_PROXY: 'loopback' },
    });
    try {
      const line = server.logLines.find((l) => l.includes('First start'));
      const cost = await costOfNames(server.url, 'admin', line && JSON.parse(line).password);
      expectSameCost(cost);
    } finally {
      await server.close();
    }
  }, 90_000);
});
