import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedIn, TestClient } from '../../../test/client.ts';
import { startTestServer, type TestServer } from '../../../test/harness.ts';

describe('sign-in', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
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

  it('slows down guessing: after 10 failures for one user name, answers 429', async () => {
    const client = new TestClient(server.url);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++)
      statuses.push((await client.post('/auth/in-memory', { user: 'teammate', password: `guess${i}` })).status);
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
    const right = await client.post('/auth/in-memory', { user: 'teammate', password: 'password' });
    expect(right.status).toBe(429);
  });

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
});
