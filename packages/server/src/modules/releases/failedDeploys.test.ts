import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256, uploadForm } from '../../../test/archives.ts';
import { expectStatus, TestClient } from '../../../test/client.ts';
import { databases, startTestServer, type TestServer } from '../../../test/harness.ts';
import { buildWorld, type World } from '../../../test/world.ts';
import { sweepExpiredDeploys } from './collect/gc.ts';

const DAY = 86_400_000;
const SOURCE = { commit: 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0', ciRunUrl: 'https://ci.example.com/runs/9' };

describe.each(databases)('failed deploys on $name', ({ postgres }) => {
  let server: TestServer;
  let world: World;
  let ci: TestClient;
  let base: string;

  beforeAll(async () => {
    server = await startTestServer({ postgres });
    world = await buildWorld(server.url);
    base = `/api/v1/sites/${world.site._id}`;
    const token = expectStatus(await world.clients.owner.post(`${base}/tokens`, { name: 'nightly' }), 200);
    ci = new TestClient(server.url).withToken(token.value);
  });
  afterAll(() => server?.close());

  const failures = async () => expectStatus(await ci.get(`${base}/deploys/failed?size=100`), 200);

  it('keeps an upload refused for its archive, with its name, branches, source, uploader and reason', async () => {
    const form = uploadForm(Buffer.from('this is no tar.gz'), 'broken build', ['preview']);
    form.append('source', JSON.stringify(SOURCE));
    const refused = await ci.request('POST', `${base}/releases`, form);
    expect(refused.status).toBe(400);
    const { items } = await failures();
    expect(items[0]).toMatchObject({
      name: 'broken build',
      code: refused.body.code,
      message: refused.body.message,
      uploader: { kind: 'siteToken', name: 'nightly' },
      log: [expect.stringContaining('started: an upload of a tar.gz'), expect.stringContaining(refused.body.code)],
    });
    // The source field came after the archive in this form: the failure was already on its way.
    expect(items[0].branches).toEqual(['preview']);
    // Its event tells the site's open pages, its hooks and the audit log.
    const audit = expectStatus(
      await world.clients.owner.get(`/api/v1/orgs/${world.org._id}/audit?event=site_deploy_failed`),
      200,
    );
    expect(audit.items[0].summary).toBe(
      `The site token 'nightly' could not upload the release 'broken build' to ${world.site.name}: ${refused.body.message}`,
    );
  });

  it('keeps a manifest refused at the start of an incremental deploy', async () => {
    const file = { path: 'index.html', hash: sha256('x'), size: 1 };
    const body = { name: 'twice the same path', branches: ['main'], files: [file, file], source: SOURCE };
    const refused = await ci.post(`${base}/deploys`, body);
    expect(refused.status).toBe(400);
    const { items } = await failures();
    expect(items[0]).toMatchObject({
      name: 'twice the same path',
      branches: ['main'],
      source: SOURCE,
      code: refused.body.code,
      log: [expect.stringContaining('started: 2 files in the manifest'), expect.stringContaining('Duplicate path')],
    });
  });

  it('keeps a deploy abandoned until it expired, then forgets it after 30 days', async () => {
    const file = { path: 'index.html', hash: sha256('never sent'), size: 10 };
    expectStatus(await ci.post(`${base}/deploys`, { name: 'cut off', branches: ['main'], files: [file] }), 200);
    await sweepExpiredDeploys(server.app, new Date(Date.now() + DAY));
    const { items, count } = await failures();
    expect(items[0]).toMatchObject({
      name: 'cut off',
      code: 'DEPLOY_EXPIRED',
      message: expect.stringMatching(/^Abandoned/),
    });

    await sweepExpiredDeploys(server.app, new Date(Date.now() + 31 * DAY));
    expect((await failures()).count).toBe(count - 3);
  });

  it('lists them only to those who may see the site', async () => {
    const outsider = await world.clients.outsider.get(`${base}/deploys/failed`);
    expect([403, 404]).toContain(outsider.status);
    const anonymous = await new TestClient(server.url).get(`${base}/deploys/failed`);
    expect(anonymous.status).toBe(401);
  });
});
