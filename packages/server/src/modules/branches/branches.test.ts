import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, type TestClient } from '../../../test/client.ts';
import { databases, startTestServer, type TestServer } from '../../../test/harness.ts';
import { buildWorld, uploadRelease, type World } from '../../../test/world.ts';

describe.each(databases)('branches and releases on $name', ({ postgres }) => {
  let server: TestServer;
  let world: World;
  let owner: TestClient;
  let base: string;

  beforeAll(async () => {
    server = await startTestServer({ postgres });
    world = await buildWorld(server.url);
    owner = world.clients.owner;
    base = `/api/v1/sites/${world.site._id}`;
  });
  afterAll(() => server.close());

  it('gives each branch a URL-safe slug, unique in the site', async () => {
    const first = expectStatus(await owner.post(`${base}/branches`, { name: 'feature/login' }), 200);
    const second = expectStatus(await owner.post(`${base}/branches`, { name: 'Feature Login' }), 200);
    expect(first.slug).toBe('feature-login');
    expect(second.slug).toBe('feature-login-2');
    expect(new URL(first.url).hostname).toBe(`feature-login.${world.site.name}.localhost`);
    const taken = await owner.post(`${base}/branches`, { name: 'feature/login' });
    expect(taken.status).toBe(409);
    expect(expectStatus(await owner.post(`${base}/branches.validate/name`, { name: 'feature/login' }), 200)).toEqual({
      valid: false,
      message: 'Branch name is taken',
    });
  });

  it('lists branches newest first', async () => {
    const names = expectStatus(await owner.get(`${base}/branches`), 200).map((b: { name: string }) => b.name);
    expect(names.at(-1)).toBe('main');
    expect(names[0]).toBe('Feature Login');
  });

  it('refuses to delete the main branch while it is main', async () => {
    const answer = await owner.delete(`${base}/branches/${world.site.mainBranch}`);
    expect(answer.status).toBe(409);
    expect(answer.body.message).toBe('The main branch cannot be deleted; make another branch main first');
    expect(expectStatus(await owner.get(`${base}/branches/${world.site.mainBranch}`), 200).name).toBe('main');
  });

  it('rolls a branch back and forth, keeping its history for the releases filter', async () => {
    const second = await uploadRelease(owner, world.site._id, 'second', ['main']);
    const main = `${base}/branches/${world.site.mainBranch}`;
    expect(expectStatus(await owner.get(main), 200).currentRelease.name).toBe('second');
    expectStatus(await owner.put(`${main}/release`, { release: world.release._id }), 200);
    const branch = expectStatus(await owner.get(main), 200);
    expect(branch.release).toBe(world.release._id);
    const history = expectStatus(await owner.get(`${base}/releases?branch=${world.site.mainBranch}`), 200);
    expect(history.items.map((r: { name: string }) => r.name)).toEqual(['second', 'first release']);
    const current = history.items.find((r: { _id: string }) => r._id === world.release._id);
    expect(current.branches.map((b: { name: string }) => b.name)).toEqual(['main']);
    expect(expectStatus(await owner.get(`/api/v1/releases/${second._id}`), 200).branches).toEqual([]);
  });

  it('refuses a release of another site', async () => {
    const otherSite = expectStatus(
      await owner.post(`/api/v1/teams/${world.team._id}/sites`, { name: world.unique('other') }),
      200,
    );
    const foreign = await uploadRelease(owner, otherSite._id, 'foreign', ['main']);
    const answer = await owner.put(`${base}/branches/${world.site.mainBranch}/release`, { release: foreign._id });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe('release: Must be a release of this site');
  });

  it('searches releases by name with a count', async () => {
    const found = expectStatus(await owner.get(`${base}/releases?search=seco&page=0&size=10`), 200);
    expect(found.count).toBe(1);
    expect(found.items[0].name).toBe('second');
  });

  it('validates redirects with the spec rules', async () => {
    const path = `${base}/branches/${world.site.mainBranch}/redirects`;
    const duplicate = await owner.put(path, {
      redirects: [
        { type: 'file', path: '/a', config: { content: 'x' } },
        { type: 'file', path: '/a', config: { content: 'y' } },
      ],
    });
    expect(duplicate.body.details).toContainEqual({ field: 'redirects.1.path', message: 'Branch name must be unique' });
    const relative = await owner.put(path, { redirects: [{ type: 'file', path: 'a', config: { content: 'x' } }] });
    expect(relative.body.details).toContainEqual({ field: 'redirects.0.path', message: "Must start with '/'" });
    const noUrl = await owner.put(path, {
      redirects: [{ type: 'reverse_proxy', path: '/api', config: { url: 'ftp://x' } }],
    });
    expect(noUrl.body.details).toContainEqual({ field: 'redirects.0.config.url', message: 'Must be an http(s) URL' });
    const good = [
      { type: 'reverse_proxy', path: '/api/*', config: { url: 'https://api.example.com', stripPathPrefix: '/api' } },
    ];
    expect(expectStatus(await owner.put(path, { redirects: good }), 200)).toEqual(good);
    expect(expectStatus(await owner.get(path), 200)).toEqual(good);
  });

  it('keeps header names unique regardless of case', async () => {
    const answer = await owner.put(`${base}/branches/${world.site.mainBranch}/headers`, {
      headers: [
        { name: 'X-Test', value: '1' },
        { name: 'x-test', value: '2' },
      ],
    });
    expect(answer.body.details).toContainEqual({ field: 'headers.1.name', message: 'Header name must be unique' });
  });

  it('stores only a slow hash of a site password and answers hasPassword', async () => {
    const site = expectStatus(await owner.put(`${base}/password`, { password: 'open sesame' }), 200);
    expect(site.hasPassword).toBe(true);
    const row = await server.app.db
      .selectFrom('sites')
      .select('password_hash')
      .where('id', '=', world.site._id)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^scrypt\$/);
    expect(expectStatus(await owner.delete(`${base}/password`), 200).hasPassword).toBe(false);
  });

  it('validates forms: letters and underscores, unique names, email recipients', async () => {
    const path = `/api/v1/releases/${world.release._id}/forms`;
    const answer = await owner.put(path, {
      forms: [
        { type: 'db', name: 'contact' },
        { type: 'email', name: 'Contact', recipient: 'not-an-email' },
        { type: 'db', name: 'has-dash' },
      ],
    });
    expect(answer.body.details).toEqual(
      expect.arrayContaining([
        { field: 'forms.1.recipient', message: 'Invalid email' },
        { field: 'forms.1.name', message: 'Form name must be unique' },
      ]),
    );
    // A new name (one the site has not found in its HTML) is typed in: spec.md's pattern.
    const typed = await owner.put(path, { forms: [{ type: 'db', name: 'has-dash' }] });
    expect([typed.status, typed.body.details]).toEqual([
      400,
      [{ field: 'forms.0.name', message: 'Must match ^[A-Za-z_]+$' }],
    ]);
  });
});
