import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, TestClient } from '../../../test/client.ts';
import { databases, startTestServer, type TestServer } from '../../../test/harness.ts';
import { siteRequest } from '../../../test/siteClient.ts';
import { buildWorld, uploadRelease, type World } from '../../../test/world.ts';

const page = (text: string) => [{ name: 'index.html', content: `<p>${text}</p>` }];

for (const database of databases) {
  describe(`what a site token may do besides uploading (${database.name})`, () => {
    let server: TestServer;
    let world: World;
    let token: TestClient;
    let base: string;

    beforeAll(async () => {
      server = await startTestServer({ postgres: database.postgres });
      world = await buildWorld(server.url);
      base = `/api/v1/sites/${world.site._id}`;
      const created = expectStatus(await world.clients.owner.post(`${base}/tokens`, { name: 'ci' }), 200);
      token = new TestClient(server.url).withToken(created.value);
    });
    afterAll(() => server?.close());

    it('lists its site’s branches and releases, rolls a branch back, and deletes a preview branch', async () => {
      const v1 = await uploadRelease(token, world.site._id, 'preview v1', ['pr-7']);
      await uploadRelease(token, world.site._id, 'preview v2', ['pr-7'], page('v2'));
      const branches = expectStatus(await token.get(`${base}/branches`), 200);
      const preview = branches.find((branch: { name: string }) => branch.name === 'pr-7');
      const releases = expectStatus(await token.get(`${base}/releases?page=0&size=10`), 200);
      expect(releases.items.map((release: { name: string }) => release.name)).toContain('preview v1');

      const rolledBack = expectStatus(
        await token.put(`${base}/branches/${preview._id}/release`, { release: v1._id }),
        200,
      );
      expect(rolledBack.release).toBe(v1._id);
      const port = Number(new URL(server.url).port);
      expect((await siteRequest(port, new URL(preview.url).host, '/')).text).not.toBe('<p>v2</p>');

      expectStatus(await token.delete(`${base}/branches/${preview._id}`), 204);
      const after = expectStatus(await token.get(`${base}/branches`), 200);
      expect(after.map((branch: { name: string }) => branch.name)).not.toContain('pr-7');
      const events = expectStatus(
        await world.clients.owner.get(`/api/v1/orgs/${world.org._id}/audit?page=0&size=5&event=site_branch_deleted`),
        200,
      );
      expect(events.items[0]).toMatchObject({ event: 'site_branch_deleted', actor: null, data: { name: 'pr-7' } });
    });

    it('may not delete the main branch, touch another site, or do what only people do', async () => {
      const main = await token.delete(`${base}/branches/${world.site.mainBranch}`);
      expect([main.status, main.body.code]).toEqual([409, 'MAIN_BRANCH_UNDELETABLE']);
      const other = expectStatus(
        await world.clients.owner.post(`/api/v1/teams/${world.team._id}/sites`, { name: world.unique('other') }),
        200,
      );
      const foreign = await token.get(`/api/v1/sites/${other._id}/branches`);
      expect([foreign.status, foreign.body.code]).toEqual([403, 'TOKEN_OTHER_SITE']);
      const rename = await token.put(`${base}/branches/${world.site.mainBranch}/name`, { name: 'renamed' });
      expect([rename.status, rename.body.code]).toEqual([403, 'TOKEN_KIND_REFUSED']);
    });
  });
}
