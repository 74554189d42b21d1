import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, signedIn, type TestClient } from '../../../test/client.ts';
import { startTestServer, type TestServer } from '../../../test/harness.ts';
import { buildWorld, type World } from '../../../test/world.ts';

describe('API tokens', () => {
  let server: TestServer;
  let world: World;
  let owner: TestClient;

  beforeAll(async () => {
    server = await startTestServer();
    world = await buildWorld(server.url);
    owner = world.clients.owner;
  });
  afterAll(() => server.close());

  const tokenWith = async (body: Record<string, unknown>) => {
    const token = expectStatus(await owner.post('/api/v1/api-tokens', { name: 'ci', ...body }), 200);
    return { token, client: owner.withToken(token.value) };
  };
  const settings = () => ({
    name: world.site.name,
    color: '#111111',
    mainBranch: world.site.mainBranch,
    spa: false,
    domains: [],
  });

  it('reads with site_read and is refused the update, naming the missing scope', async () => {
    const { client } = await tokenWith({ scopes: ['site_read'] });
    expect((await client.get(`/api/v1/sites/${world.site._id}`)).status).toBe(200);
    const update = await client.put(`/api/v1/sites/${world.site._id}`, settings());
    expect(update.status).toBe(403);
    expect(update.body.message).toBe('The token lacks the scope site_update');
  });

  it('never goes beyond what its user may do', async () => {
    const member = await signedIn(server.url, 'member');
    const token = expectStatus(
      await member.post('/api/v1/api-tokens', { name: 'm', scopes: ['site_update', 'site_read'] }),
      200,
    );
    const client = member.withToken(token.value);
    expect((await client.get(`/api/v1/sites/${world.site._id}`)).status).toBe(200);
    expect((await client.put(`/api/v1/sites/${world.site._id}`, settings())).status).toBe(403);
  });

  it('is refused before it activates and after it expires, saying so', async () => {
    const future = new Date(Date.now() + 3600_000).toISOString();
    const early = await tokenWith({ scopes: ['user_read'], activesAt: future });
    const tooEarly = await early.client.get('/api/v1/user');
    expect(tooEarly.status).toBe(401);
    expect(tooEarly.body.message).toBe(`The token is not active until ${future}`);

    const { token, client } = await tokenWith({ scopes: ['user_read'] });
    const past = new Date(Date.now() - 1000).toISOString();
    expectStatus(
      await owner.put(`/api/v1/api-tokens/${token._id}`, {
        name: 'ci',
        activatesAt: '2020-01-01T00:00:00.000Z',
        expiresAt: past,
        scopes: ['user_read'],
      }),
      200,
    );
    const expired = await client.get('/api/v1/user');
    expect(expired.status).toBe(401);
    expect(expired.body.message).toBe(`The token expired at ${past}`);
  });

  it('cannot call routes without a scope, such as minting more tokens', async () => {
    const { client } = await tokenWith({ scopes: ['user_read'] });
    const answer = await client.post('/api/v1/api-tokens', { name: 'x', scopes: [] });
    expect(answer.status).toBe(403);
    expect(answer.body.message).toBe('This route cannot be called with an API token');
  });

  it('shows its value again on its detail, and stores it only sealed', async () => {
    const { token } = await tokenWith({ scopes: [] });
    expect(expectStatus(await owner.get(`/api/v1/api-tokens/${token._id}`), 200).value).toBe(token.value);
    const row = await server.app.db
      .selectFrom('api_tokens')
      .selectAll()
      .where('id', '=', token._id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(token.value);
  });

  it('refuses unknown scopes and an expiry before the activation', async () => {
    const unknown = await owner.post('/api/v1/api-tokens', { name: 'x', scopes: ['site_read', 'root'] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe('scopes.1: Unknown scope root');
    const backwards = await owner.post('/api/v1/api-tokens', {
      name: 'x',
      scopes: [],
      activesAt: '2030-01-01T00:00:00Z',
      expiresAt: '2029-01-01T00:00:00Z',
    });
    expect(backwards.status).toBe(400);
    expect(backwards.body.message).toBe('expiresAt: Must be after activesAt');
  });

  it('keeps tokens private to their user', async () => {
    const { token } = await tokenWith({ scopes: [] });
    const other = await signedIn(server.url, 'admin');
    expect((await other.get(`/api/v1/api-tokens/${token._id}`)).status).toBe(404);
    expect(expectStatus(await other.get('/api/v1/api-tokens'), 200).map((t: { _id: string }) => t._id)).not.toContain(
      token._id,
    );
  });

  it('lists every route of the contract with its scope', async () => {
    const endpoints = expectStatus(await owner.get('/api/v1/api-endpoints'), 200);
    expect(endpoints).toContainEqual(
      expect.objectContaining({ method: 'put', path: '/api/v1/sites/:siteId', apiScope: 'site_update' }),
    );
    expect(endpoints).toContainEqual(
      expect.objectContaining({ method: 'post', path: '/api/v1/api-tokens', apiScope: null }),
    );
  });
});

describe('API reference', () => {
  it('serves the OpenAPI document of every route and a page to read it', async () => {
    const server = await startTestServer();
    try {
      const document: any = await (await fetch(`${server.url}/api/v1/openapi.json`)).json();
      expect(document.openapi).toBe('3.0.3');
      expect(document.paths['/api/v1/sites/{siteId}'].put['x-wharf-scope']).toBe('site_update');
      const page = await fetch(`${server.url}/api/docs/`);
      expect(page.headers.get('content-type')).toContain('text/html');
      expect(await page.text()).toContain('/api/docs/start.js');
      expect(await (await fetch(`${server.url}/api/docs/start.js`)).text()).toContain('/api/v1/openapi.json');
      const bundle = await fetch(`${server.url}/api/docs/swagger-ui-bundle.js`);
      expect(bundle.status).toBe(200);
      await bundle.arrayBuffer();
    } finally {
      await server.close();
    }
  });
});
