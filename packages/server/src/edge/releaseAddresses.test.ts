import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { gunzipSync } from 'node:zlib';
import { extract } from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tarGz, uploadForm } from '../../test/archives.ts';
import { expectStatus, TestClient } from '../../test/client.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { siteRequest } from '../../test/siteClient.ts';
import { buildWorld, uploadRelease, type World } from '../../test/world.ts';

/** Every file of a tar.gz by name. */
async function filesOfArchive(archive: Buffer) {
  const files = new Map<string, string>();
  const reader = extract();
  reader.on('entry', (header, stream, next) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk) => chunks.push(chunk as Buffer));
    stream.on('end', () => {
      files.set(header.name, Buffer.concat(chunks).toString());
      next();
    });
  });
  await pipeline(Readable.from([gunzipSync(archive)]), reader);
  return files;
}

const page = (text: string) => [{ name: 'index.html', content: `<p>${text}</p>` }];
const basic = (password: string) => `Basic ${Buffer.from(`user:${password}`).toString('base64')}`;

/** An upload as a CI job sends it: the source it read from the job's variables, maybe as a draft. */
async function uploadFromCi(client: TestClient, siteId: string, name: string, extra: Record<string, string>) {
  const form = uploadForm(await tarGz(page(name)), name, []);
  for (const [field, value] of Object.entries(extra)) form.append(field, value);
  return client.request('POST', `/api/v1/sites/${siteId}/releases`, form);
}

const SOURCE = {
  commit: '3f2c9a1b7d4e5f60718293a4b5c6d7e8f9012345',
  message: 'Fix the pricing table',
  branch: 'feature/pricing',
  author: 'Ada Lovelace',
  commitUrl: 'https://github.com/acme/shop/commit/3f2c9a1b7d4e5f60718293a4b5c6d7e8f9012345',
  pullRequest: 12,
  pullRequestUrl: 'https://github.com/acme/shop/pull/12',
  ci: 'GitHub Actions',
  ciRunUrl: 'https://github.com/acme/shop/actions/runs/42',
};

for (const branchHosts of ['nested', 'flat'] as const) {
  describe(`release addresses (${branchHosts} branch hosts)`, () => {
    let server: TestServer;
    let world: World;
    let owner: TestClient;
    let port: number;

    beforeAll(async () => {
      server = await startTestServer({ env: { WHARF_BRANCH_HOSTS: branchHosts } });
      port = Number(new URL(server.url).port);
      world = await buildWorld(server.url);
      owner = world.clients.owner;
    });
    afterAll(() => server?.close());

    const get = (url: string, headers: Record<string, string> = {}) =>
      siteRequest(port, new URL(url).host, '/', { headers });

    it('serves every release at its own address, which stays when the branch moves on', async () => {
      const { site } = world;
      const v1 = await uploadRelease(owner, site._id, 'v1', ['main'], page('v1'));
      const v2 = await uploadRelease(owner, site._id, 'v2', ['main'], page('v2'));
      expect(v1.url).toMatch(new RegExp(`^http://[0-9a-z]{8}--${site.name}\\.localhost:${port}/$`));
      expect(v2.url).not.toBe(v1.url);
      const first = await get(v1.url);
      expect(first.text).toBe('<p>v1</p>');
      expect(first.headers['x-robots-tag']).toBe('noindex');
      expect((await get(v2.url)).text).toBe('<p>v2</p>');
      expect((await siteRequest(port, `${site.name}.localhost:${port}`, '/')).headers['x-robots-tag']).toBeUndefined();

      const listed = expectStatus(await owner.get(`/api/v1/releases/${v1._id}`), 200);
      expect(listed).toMatchObject({ slug: v1.slug, url: v1.url });
    });

    it('answers 404 for a slug the site has not, and for a deleted release', async () => {
      const { site } = world;
      const gone = expectStatus(await uploadFromCi(owner, site._id, 'gone', { draft: 'true' }), 200);
      expect((await get(gone.url)).text).toBe('<p>gone</p>');
      expectStatus(await owner.delete(`/api/v1/releases/${gone._id}`), 204);
      expect((await get(gone.url)).status).toBe(404);
      expect((await siteRequest(port, `zzzzzzzz--${site.name}.localhost:${port}`, '/')).status).toBe(404);
    });

    it("asks for the site's password, and takes no form posts", async () => {
      const { site } = world;
      const release = await uploadRelease(owner, site._id, 'private', ['main'], page('private'));
      expectStatus(await owner.put(`/api/v1/sites/${site._id}/password`, { password: 'open sesame' }), 200);
      try {
        expect((await get(release.url)).status).toBe(401);
        expect((await get(release.url, { authorization: basic('open sesame') })).text).toBe('<p>private</p>');
      } finally {
        expectStatus(await owner.delete(`/api/v1/sites/${site._id}/password`), 200);
      }
      const posted = await siteRequest(port, new URL(release.url).host, '/', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'form-name=contact&email=a%40b.c',
      });
      expect(posted.status).toBe(405);
    });

    it("asks for a password of its own at its address alone, else for the site's", async () => {
      const { site } = world;
      const preview = await uploadRelease(owner, site._id, 'for the client', ['main'], page('for the client'));
      const locked = expectStatus(
        await owner.put(`/api/v1/releases/${preview._id}/password`, { password: 'client only' }),
        200,
      );
      expect(locked.hasPassword).toBe(true);
      expect((await get(preview.url)).status).toBe(401);
      expect((await get(preview.url, { authorization: basic('client only') })).text).toBe('<p>for the client</p>');
      // The branches serving the same release keep theirs: the site is public.
      expect((await siteRequest(port, `${site.name}.localhost:${port}`, '/')).status).toBe(200);

      expectStatus(await owner.put(`/api/v1/sites/${site._id}/password`, { password: 'whole site' }), 200);
      try {
        expect((await get(preview.url, { authorization: basic('whole site') })).status).toBe(401);
        const opened = expectStatus(await owner.delete(`/api/v1/releases/${preview._id}/password`), 200);
        expect(opened.hasPassword).toBe(false);
        expect((await get(preview.url, { authorization: basic('whole site') })).status).toBe(200);
      } finally {
        expectStatus(await owner.delete(`/api/v1/sites/${site._id}/password`), 200);
      }
      expect((await get(preview.url)).status).toBe(200);
      const audit = expectStatus(
        await owner.get(`/api/v1/orgs/${world.org._id}/audit?event=site_release_password_set`),
        200,
      );
      expect(JSON.stringify(audit)).toContain("set a password on the address of release 'for the client'");
    });

    it('uploads a draft that no branch serves, seen only at its own address', async () => {
      const { site } = world;
      const live = await uploadRelease(owner, site._id, 'live', ['main'], page('live'));
      const draft = expectStatus(await uploadFromCi(owner, site._id, 'draft', { draft: 'true' }), 200);
      expect(draft.deployedBranches).toEqual([]);
      expect(draft.branches).toEqual([]);
      expect((await get(draft.url)).text).toBe('<p>draft</p>');
      expect((await siteRequest(port, `${site.name}.localhost:${port}`, '/')).text).toBe('<p>live</p>');
      expect(live.url).not.toBe(draft.url);

      // Published to a new branch by name, then to the main branch (no name): its address stays the same.
      const preview = expectStatus(
        await owner.post(`/api/v1/releases/${draft._id}/publish`, { branch: 'review' }),
        200,
      );
      expect(preview).toMatchObject({ name: 'review', release: draft._id });
      expect((await get(preview.url)).text).toBe('<p>draft</p>');
      const created = expectStatus(await owner.post(`/api/v1/sites/${site._id}/tokens`, { name: 'publisher' }), 200);
      const ci = new TestClient(server.url).withToken(created.value);
      const main = expectStatus(await ci.post(`/api/v1/releases/${draft._id}/publish`, {}), 200);
      expect(main.release).toBe(draft._id);
      expect((await siteRequest(port, `${site.name}.localhost:${port}`, '/')).text).toBe('<p>draft</p>');
      expect((await get(draft.url)).text).toBe('<p>draft</p>');
      const published = expectStatus(await owner.get(`/api/v1/releases/${draft._id}`), 200);
      expect(published.branches.map((branch: { name: string }) => branch.name).sort()).toEqual(['main', 'review']);

      const refused = await uploadFromCi(owner, site._id, 'draft', { draft: 'true', branches: 'main' });
      expect(refused.status).toBe(400);
      expect(refused.body.details).toEqual([{ field: 'branches', message: expect.stringContaining('draft') }]);
    });

    it('records where a release came from and who uploaded it, and the audit log names the token', async () => {
      const { site } = world;
      const created = expectStatus(
        await owner.post(`/api/v1/sites/${site._id}/tokens`, { name: 'GitHub deploys' }),
        200,
      );
      const ci = new TestClient(server.url).withToken(created.value);
      const release = expectStatus(
        await uploadFromCi(ci, site._id, 'from ci', { source: JSON.stringify(SOURCE) }),
        200,
      );
      expect(release.source).toEqual(SOURCE);
      expect(release.uploader).toEqual({
        kind: 'siteToken',
        name: 'GitHub deploys',
        userId: null,
        tokenName: 'GitHub deploys',
      });
      expect(release.uploadMs).toBeGreaterThanOrEqual(0);
      expect(release.newFiles).toBe(1);

      const audit = expectStatus(
        await owner.get(`/api/v1/orgs/${world.org._id}/audit?event=site_release_created`),
        200,
      );
      const entry = audit.items.find((item: { data: { releaseId?: string } }) => item.data.releaseId === release._id);
      expect(entry.summary).toBe(
        `The site token 'GitHub deploys' uploaded the release 'from ci' to ${site.name} from commit 3f2c9a1 (CI run ${SOURCE.ciRunUrl})`,
      );
      expect(entry.link).toBe(`/sites/${site._id}/releases/${release._id}`);

      // The same files again, by a person this time: nothing in it is new to the organization.
      const again = expectStatus(await uploadFromCi(owner, site._id, 'from ci', { draft: 'true' }), 200);
      expect(again.uploader).toMatchObject({ kind: 'user', name: expect.any(String), tokenName: null });
      expect(again.newFiles).toBe(0);
    });

    it('lists its files by path with their encodings, and the branches serving it since when', async () => {
      const { site } = world;
      const css = `body { color: #123456; }\n${'p { margin: 0 }\n'.repeat(200)}`;
      const files = [
        ...page('files'),
        { name: 'assets/site.css', content: css },
        { name: 'assets/logo.png', content: 'png' },
      ];
      const release = await uploadRelease(owner, site._id, 'with files', ['files'], files);
      const listed = expectStatus(await owner.get(`/api/v1/releases/${release._id}/files?page=0&size=2`), 200);
      expect(listed.count).toBe(3);
      expect(listed.items.map((file: { path: string }) => file.path)).toEqual(['assets/logo.png', 'assets/site.css']);
      expect(listed.items[1]).toMatchObject({
        size: Buffer.byteLength(css),
        hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      });
      const found = expectStatus(await owner.get(`/api/v1/releases/${release._id}/files?search=INDEX`), 200);
      expect(found.items).toEqual([expect.objectContaining({ path: 'index.html' })]);
      const archive = await owner.getBytes(`/api/v1/releases/${release._id}/archive`);
      expect(archive.status).toBe(200);
      expect(archive.headers.get('content-disposition')).toBe(`attachment; filename="${site.name}-with-files.tar.gz"`);
      expect(await filesOfArchive(archive.body)).toEqual(new Map(files.map((file) => [file.name, file.content])));

      const shown = expectStatus(await owner.get(`/api/v1/releases/${release._id}`), 200);
      expect(shown.branches).toEqual([
        expect.objectContaining({ name: 'files', since: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) }),
      ]);
    });

    it('refuses a source that is not one: bad JSON, a link that is not http, a commit that is no SHA', async () => {
      const { site } = world;
      for (const source of [
        '{',
        JSON.stringify({ commitUrl: 'javascript:alert(1)' }),
        JSON.stringify({ commit: 'main' }),
      ]) {
        const refused = await uploadFromCi(owner, site._id, 'bad source', { source });
        expect(refused.status, source).toBe(400);
        expect(refused.body.details[0].field, source).toMatch(/^source/);
      }
    });
  });
}
