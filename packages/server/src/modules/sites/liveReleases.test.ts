import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tarGz, uploadForm } from '../../../test/archives.ts';
import { expectStatus, type TestClient } from '../../../test/client.ts';
import { databases, startTestServer, type TestServer } from '../../../test/harness.ts';
import { buildWorld, uploadRelease, type World } from '../../../test/world.ts';

const page = (text: string) => [{ name: 'index.html', content: `<p>${text}</p>` }];

describe.each(databases)('what each site serves, on $name', ({ postgres }) => {
  let server: TestServer;
  let world: World;
  let owner: TestClient;

  beforeAll(async () => {
    server = await startTestServer({ postgres });
    world = await buildWorld(server.url);
    owner = world.clients.owner;
  });
  afterAll(() => server?.close());

  const newSite = async (name: string) =>
    expectStatus(await owner.post(`/api/v1/teams/${world.team._id}/sites`, { name }), 200);
  const orgSites = async (sort: string) =>
    expectStatus(await owner.get(`/api/v1/orgs/${world.org._id}/sites?sort=${sort}&size=100`), 200).items as {
      name: string;
      live: { name: string; commit: string | null } | null;
      lastDeploy: { state: string; name: string } | null;
    }[];

  it('names the production release and the last deploy of each site, and sorts by it', async () => {
    const quiet = await newSite('aaa-quiet');
    const shop = await newSite('mmm-shop');
    const blog = await newSite('zzz-blog');
    const form = uploadForm(await tarGz(page('v1')), 'v1', []);
    form.append('source', JSON.stringify({ commit: 'abcdef0123456789', author: 'Ada' }));
    expectStatus(await owner.request('POST', `/api/v1/sites/${shop._id}/releases`, form), 200);
    await uploadRelease(owner, blog._id, 'launch', [], page('blog'));
    // A preview is no production release, but it is the blog's last deploy; then the shop's fails.
    await uploadRelease(owner, blog._id, 'preview', ['preview'], page('preview'));
    const broken = uploadForm(Buffer.from('no archive'), 'v2', []);
    expect((await owner.request('POST', `/api/v1/sites/${shop._id}/releases`, broken)).status).toBe(400);

    const byName = await orgSites('name');
    const of = (name: string) => byName.find((site) => site.name === name)!;
    expect(of('aaa-quiet')).toMatchObject({ live: null, lastDeploy: null });
    expect(of('mmm-shop')).toMatchObject({
      live: { name: 'v1', commit: 'abcdef0123456789', author: 'Ada', url: expect.stringContaining('--mmm-shop.') },
      lastDeploy: { state: 'failed', name: 'v2', message: expect.any(String) },
    });
    expect(of('zzz-blog')).toMatchObject({
      live: { name: 'launch' },
      lastDeploy: { state: 'succeeded', name: 'preview' },
    });

    const mine = (await orgSites('lastDeploy')).map((site) => site.name).filter((name) => /^(aaa|mmm|zzz)-/.test(name));
    expect(mine).toEqual(['mmm-shop', 'zzz-blog', 'aaa-quiet']);
    expect(quiet.live).toBeNull();
    const one = expectStatus(await owner.get(`/api/v1/sites/${shop._id}`), 200);
    expect(one.live.name).toBe('v1');
  });

  it('refuses a sort it does not know', async () => {
    const refused = await owner.get(`/api/v1/orgs/${world.org._id}/sites?sort=size`);
    expect(refused.status).toBe(400);
  });
});
