import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, type TestClient } from '../../../test/client.ts';
import { databases, startTestServer, type TestServer } from '../../../test/harness.ts';
import { buildWorld, type World } from '../../../test/world.ts';
import { variablesOfBuild } from './variables.ts';

describe.each(databases)('the variables of a site’s builds ($name)', ({ postgres }) => {
  let server: TestServer;
  let world: World;
  let owner: TestClient;
  let base: string;
  const add = (body: Record<string, unknown>) => owner.post(`${base}/build-variables`, body);

  beforeAll(async () => {
    server = await startTestServer({ postgres });
    world = await buildWorld(server.url);
    owner = world.clients.owner;
    base = `/api/v1/sites/${world.site._id}`;
  });
  afterAll(() => server?.close());

  it('keeps a secret sealed and never answers it, a plain value as it is', async () => {
    const secret = expectStatus(await add({ key: 'TOKEN', value: 'tok-123456', secret: true, context: 'all' }), 201);
    expect(secret).toMatchObject({ key: 'TOKEN', secret: true, value: null, context: 'all', gitBranch: null });
    const plain = expectStatus(await add({ key: 'API_URL', value: 'https://api.example.test', context: 'all' }), 201);
    expect(plain.value).toBe('https://api.example.test');
    const listed = expectStatus(await owner.get(`${base}/build-variables`), 200);
    expect(JSON.stringify(listed)).not.toContain('tok-123456');
    const rows = await server.app.db.selectFrom('build_variables').select('value_sealed').execute();
    expect(rows.map((row) => row.value_sealed).join()).not.toContain('tok-123456');
    // A secret keeps its value when changed without one; made plain, it needs its value again.
    expectStatus(await owner.put(`${base}/build-variables/${secret._id}`, { context: 'production' }), 200);
    const refused = expectStatus(
      await owner.put(`${base}/build-variables/${secret._id}`, { context: 'all', secret: false }),
      400,
    );
    expect(refused.details).toEqual([{ field: 'value', message: 'Give the value: a secret’s is never read back' }]);
  });

  it('refuses the names Wharf sets itself, a second value for one context, and a branch context without its branch', async () => {
    for (const key of ['HOME', 'CI', 'WHARF_COMMIT', 'wharf_x', '1ST', 'A-B'])
      expect(expectStatus(await add({ key, value: 'x', context: 'all' }), 400).code).toBe('VALIDATION_FAILED');
    expect(expectStatus(await add({ key: 'API_URL', value: 'again', context: 'all' }), 409).code).toBe(
      'BUILD_VARIABLE_TAKEN',
    );
    expect(expectStatus(await add({ key: 'X', value: 'x', context: 'branch' }), 400).details[0].field).toBe(
      'gitBranch',
    );
    expect(
      expectStatus(await add({ key: 'X', value: 'x', context: 'all', gitBranch: 'main' }), 400).details[0].field,
    ).toBe('gitBranch');
  });

  it('gives a build the most precise value of each name: its branch’s, then its context’s, then every build’s', async () => {
    expectStatus(await add({ key: 'API_URL', value: 'https://prod.example.test', context: 'production' }), 201);
    expectStatus(await add({ key: 'API_URL', value: 'https://preview.example.test', context: 'previews' }), 201);
    expectStatus(
      await add({ key: 'API_URL', value: 'https://feature.example.test', context: 'branch', gitBranch: 'feature/x' }),
      201,
    );
    const of = (gitBranch: string) =>
      variablesOfBuild(server.app.db, server.app.sealer, world.site._id, gitBranch, 'main');
    expect((await of('main')).variables).toEqual({ API_URL: 'https://prod.example.test', TOKEN: 'tok-123456' });
    expect((await of('main')).secrets).toEqual(['tok-123456']);
    expect((await of('fix')).variables).toEqual({ API_URL: 'https://preview.example.test' });
    expect((await of('feature/x')).variables).toEqual({ API_URL: 'https://feature.example.test' });
    expect((await of('fix')).context).toBe('previews');
  });
});
