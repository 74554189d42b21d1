import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, TestClient } from '../../test/client.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { siteRequest } from '../../test/siteClient.ts';
import { buildWorld, uploadRelease } from '../../test/world.ts';
import { randomString } from '../lib/ids.ts';

const FORM_FILES = [
  { name: 'index.html', content: 'contact' },
  { name: '.wharf.yml', content: 'forms:\n  - name: contact\n    type: db\n' },
];

/** The client address the API logged for one request sent with `headers`. */
async function loggedClient(server: TestServer, headers: Record<string, string>) {
  const probe = randomString(12);
  await new TestClient(server.url).request('GET', `/api/v1/system/info?probe=${probe}`, undefined, headers);
  const line = server.logLines.find((entry) => entry.includes(probe) && entry.includes('request completed'));
  const { req } = JSON.parse(line ?? '{}');
  return { address: req?.remoteAddress, host: req?.host };
}

/** A site with a form; answers a function that posts to it with `headers` and tells the address stored with it. */
async function siteWithForm(server: TestServer) {
  const world = await buildWorld(server.url);
  await uploadRelease(world.clients.owner, world.site._id, 'form', ['main'], FORM_FILES);
  const port = Number(new URL(server.url).port);
  return async (headers: Record<string, string>) => {
    const message = randomString(12);
    const answer = await siteRequest(port, `${world.site.name}.localhost:${port}`, '/.wharf/forms/contact', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', ...headers },
      body: `message=${message}`,
    });
    expect(answer.status).toBe(200);
    const rows = await server.app.db.selectFrom('form_submissions').select(['fields', 'client_address']).execute();
    return rows.find((row) => row.fields.includes(message))?.client_address;
  };
}

const wrongSignIn = (server: TestServer, user: string, forwardedFor: string) =>
  new TestClient(server.url).request(
    'POST',
    '/auth/in-memory',
    { user, password: 'wrong' },
    { 'x-forwarded-for': forwardedFor },
  );

describe('the client address with WHARF_TRUST_PROXY unset', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ captureLog: true });
  });
  afterAll(() => server.close());

  it('is the connection’s peer in the request log, whatever X-Forwarded-For and X-Forwarded-Host say', async () => {
    const logged = await loggedClient(server, { 'x-forwarded-for': '203.0.113.7', 'x-forwarded-host': 'evil.example' });
    expect(logged.address).toBe('127.0.0.1');
    expect(logged.host).toBe(new URL(server.url).host);
  });

  it('is the connection’s peer for a form posted to a site', async () => {
    const postForm = await siteWithForm(server);
    expect(await postForm({ 'x-forwarded-for': '203.0.113.7' })).toBe('127.0.0.1');
  });

  it('keeps the sign-in delay of the address when X-Forwarded-For changes at every attempt', async () => {
    for (let i = 0; i < 6; i++)
      expect((await wrongSignIn(server, `nobody-${i}`, `203.0.113.${i + 1}`)).status).toBe(401);
    // Six failures of one address: its next attempt waits 1.6 s before it is even checked.
    const started = Date.now();
    expect((await wrongSignIn(server, 'nobody-else', '203.0.113.99')).status).toBe(401);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_200);
  });
});

describe('the client address behind trusted proxies', () => {
  const servers: TestServer[] = [];
  const start = async (setting: string) => {
    const server = await startTestServer({ captureLog: true, env: { WHARF_TRUST_PROXY: setting } });
    servers.push(server);
    return server;
  };
  afterAll(() => Promise.all(servers.map((server) => server.close())));

  it.each(['127.0.0.1', 'loopback', '10.0.0.0/8, 127.0.0.0/8', '1'])(
    'is the nearest untrusted forwarded address with %j',
    async (setting) => {
      const server = await start(setting);
      const logged = await loggedClient(server, {
        'x-forwarded-for': '198.51.100.1, 203.0.113.7',
        'x-forwarded-host': 'sites.example',
      });
      expect(logged.address).toBe('203.0.113.7');
      expect(logged.host).toBe('sites.example');
    },
  );

  it('walks back through every trusted proxy of the list', async () => {
    const server = await start('127.0.0.1,10.0.0.0/8');
    const logged = await loggedClient(server, { 'x-forwarded-for': '198.51.100.1, 203.0.113.7, 10.1.2.3' });
    expect(logged.address).toBe('203.0.113.7');
  });

  it('ignores X-Forwarded-For from a peer that is not one of the proxies', async () => {
    const server = await start('10.0.0.0/8');
    const logged = await loggedClient(server, { 'x-forwarded-for': '203.0.113.7', 'x-forwarded-host': 'evil.example' });
    expect(logged.address).toBe('127.0.0.1');
    expect(logged.host).toBe(new URL(server.url).host);
  });

  it('is the forwarded address for a form posted to a site', async () => {
    const postForm = await siteWithForm(await start('loopback'));
    expect(await postForm({ 'x-forwarded-for': '203.0.113.7' })).toBe('203.0.113.7');
  });

  it('gives each forwarded address its own sign-in delay', async () => {
    const server = await start('loopback');
    for (let i = 0; i < 6; i++) expect((await wrongSignIn(server, `nobody-${i}`, '203.0.113.1')).status).toBe(401);
    const finished: string[] = [];
    await Promise.all([
      wrongSignIn(server, 'someone', '203.0.113.1').then(() => finished.push('penalised address')),
      wrongSignIn(server, 'someone-else', '203.0.113.2').then(() => finished.push('fresh address')),
    ]);
    expect(finished).toEqual(['fresh address', 'penalised address']);
    expectStatus(await wrongSignIn(server, 'someone', '203.0.113.3'), 401);
  });
});
