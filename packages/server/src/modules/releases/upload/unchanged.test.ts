import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256, tarGz, uploadForm } from '../../../../test/archives.ts';
import { expectStatus, signedIn, type TestClient } from '../../../../test/client.ts';
import { databases, startTestServer, type TestServer } from '../../../../test/harness.ts';

describe.each(databases)('an upload of what the branches already serve, on $name', ({ postgres }) => {
  let server: TestServer;
  let owner: TestClient;
  let token: TestClient;
  let siteId: string;

  beforeAll(async () => {
    server = await startTestServer({ postgres });
    owner = await signedIn(server.url, 'owner');
    const org = expectStatus(await owner.post('/api/v1/orgs', { name: 'Acme' }), 200);
    const team = expectStatus(await owner.post(`/api/v1/orgs/${org._id}/teams`, { name: 'Web' }), 200);
    const site = expectStatus(await owner.post(`/api/v1/teams/${team._id}/sites`, { name: 'again' }), 200);
    siteId = site._id;
    token = owner.withToken(
      expectStatus(await owner.post(`/api/v1/sites/${siteId}/tokens`, { name: 'ci' }), 200).value,
    );
  });
  afterAll(() => server.close());

  /** Deploys `files` (path → content) incrementally, sending what the server lacks, and answers the finalise. */
  async function deploy(files: Record<string, string>, options: { branches?: string[]; force?: boolean } = {}) {
    const manifest = Object.entries(files).map(([path, content]) => ({
      path,
      hash: sha256(content),
      size: content.length,
    }));
    const body = { name: 'ci run', branches: options.branches ?? ['main'], files: manifest, force: options.force };
    const started = expectStatus(await token.post(`/api/v1/sites/${siteId}/deploys`, body), 200);
    for (const [path, content] of Object.entries(files)) {
      const hash = sha256(content);
      if (!started.missing.includes(hash)) continue;
      const sent = await token.request('PUT', `/api/v1/deploys/${started._id}/files/${hash}`, content, {
        'content-type': 'application/octet-stream',
      });
      expect({ path, status: sent.status }).toEqual({ path, status: 204 });
    }
    const finalize = () => token.post(`/api/v1/deploys/${started._id}/finalize`);
    return { release: expectStatus(await finalize(), 200), finalize };
  }

  const releaseCount = async () =>
    expectStatus(await owner.get(`/api/v1/sites/${siteId}/releases?page=0&size=100`), 200).count as number;

  const site = { 'index.html': '<h1>v1</h1>', _redirects: '/old /new 301\n' };

  it('answers the release the branch serves, says it is unchanged, and makes no second release', async () => {
    const first = (await deploy(site)).release;
    expect(first.unchanged).toBe(false);
    const count = await releaseCount();
    const { release: again, finalize } = await deploy(site);
    expect(again).toMatchObject({ _id: first._id, unchanged: true, fileCount: 2 });
    expect(again.deployedBranches.map((branch: { name: string }) => branch.name)).toEqual(['main']);
    expect(await releaseCount()).toBe(count);
    // A finalise tried again (its answer lost) answers the same.
    expect(expectStatus(await finalize(), 200)).toMatchObject({ _id: first._id, unchanged: true });
  });

  it('makes a release when forced, when a file or a rule differs, or when the branches serve different releases', async () => {
    const served = (await deploy(site)).release;
    const forced = (await deploy(site, { force: true })).release;
    expect(forced).toMatchObject({ unchanged: false });
    expect(forced._id).not.toBe(served._id);
    const otherRule = (await deploy({ ...site, _redirects: '/old /newer 301\n' })).release;
    expect(otherRule.unchanged).toBe(false);
    const oneFileMore = (await deploy({ ...site, _redirects: '/old /newer 301\n', 'a.txt': 'a' })).release;
    expect(oneFileMore.unchanged).toBe(false);
    // main serves the last; preview is new, so the two serve different releases.
    const both = (
      await deploy({ ...site, _redirects: '/old /newer 301\n', 'a.txt': 'a' }, { branches: ['main', 'preview'] })
    ).release;
    expect(both.unchanged).toBe(false);
    expect(
      (await deploy({ ...site, 'a.txt': 'a', _redirects: '/old /newer 301\n' }, { branches: ['main', 'preview'] }))
        .release,
    ).toMatchObject({ _id: both._id, unchanged: true });
  });

  it('answers the same way to an archive upload, with force as a form field', async () => {
    const archive = await tarGz([
      { name: 'index.html', content: '<h1>archive</h1>' },
      { name: 'app.js', content: 'app()' },
    ]);
    const upload = async (force?: string) => {
      const form = uploadForm(archive, 'archive run', ['archived']);
      if (force) form.append('force', force);
      return expectStatus(await token.request('POST', `/api/v1/sites/${siteId}/releases`, form), 200);
    };
    const first = await upload();
    expect(first.unchanged).toBe(false);
    expect(await upload()).toMatchObject({ _id: first._id, unchanged: true });
    const forced = await upload('true');
    expect(forced.unchanged).toBe(false);
    expect(forced._id).not.toBe(first._id);
    const refused = await token.request(
      'POST',
      `/api/v1/sites/${siteId}/releases`,
      (() => {
        const form = uploadForm(archive, 'archive run', ['archived']);
        form.append('force', 'yes');
        return form;
      })(),
    );
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('VALIDATION_FAILED');
  });
});
