import { utimes } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256, tarGz, uploadForm } from '../../../../test/archives.ts';
import { expectStatus, signedIn, type TestClient } from '../../../../test/client.ts';
import { databases, startTestServer, type TestServer } from '../../../../test/harness.ts';
import { siteRequest } from '../../../../test/siteClient.ts';
import { blobKey } from '../../../releaseFiles/blobKeys.ts';
import { holdingCollection } from '../collect/holds.ts';

const DAY_MS = 86_400_000;
const daysLater = (days: number) => new Date(Date.now() + days * DAY_MS);

interface Release {
  _id: string;
  name: string;
  deployedBranches: { _id: string; name: string; url: string }[];
}

describe.each(databases)('retention on $name', ({ postgres }) => {
  let server: TestServer;
  let owner: TestClient;
  let teamId: string;
  let sites = 0;

  beforeAll(async () => {
    server = await startTestServer({ postgres });
    owner = await signedIn(server.url, 'owner');
    const org = expectStatus(await owner.post('/api/v1/orgs', { name: 'Acme' }), 200);
    teamId = expectStatus(await owner.post(`/api/v1/orgs/${org._id}/teams`, { name: 'Web' }), 200)._id;
  });
  afterAll(() => server.close());

  /** Past the life of every deploy made so far: none still holds on to the release it became. */
  const afterDeploysExpire = () => new Date(Date.now() + server.app.config.deployTtlMs + 60_000);

  /** A new site and a client holding its upload token. */
  async function newSite() {
    const name = `keep-${postgres ? 'pg' : 'lite'}-${++sites}`;
    const site = expectStatus(await owner.post(`/api/v1/teams/${teamId}/sites`, { name }), 200);
    const siteToken = expectStatus(await owner.post(`/api/v1/sites/${site._id}/tokens`, { name: 'ci' }), 200);
    return { site, ci: owner.withToken(siteToken.value) };
  }

  async function upload(ci: TestClient, siteId: string, name: string, branches: string[] = [], expires?: string) {
    const form = uploadForm(
      await tarGz([{ name: 'index.html', content: `<p>${name} of ${siteId}</p>` }]),
      name,
      branches,
    );
    if (expires) form.append('expires', expires);
    return ci.request('POST', `/api/v1/sites/${siteId}/releases`, form);
  }

  const uploaded = async (...args: Parameters<typeof upload>) => expectStatus(await upload(...args), 200) as Release;

  async function releaseNames(siteId: string) {
    const page = expectStatus(await owner.get(`/api/v1/sites/${siteId}/releases?size=100`), 200);
    return (page.items as { name: string }[]).map((release) => release.name).sort();
  }

  const setRetention = (siteId: string, keepReleasesDays: number | null, keepReleasesCount: number | null) =>
    owner.put(`/api/v1/sites/${siteId}/retention`, { keepReleasesDays, keepReleasesCount });

  it('gives a new site bounded retention, and takes new limits, or none, from those who manage it', async () => {
    const { site } = await newSite();
    expect(site.retention).toEqual({ keepReleasesDays: 30, keepReleasesCount: 100 });
    const saved = expectStatus(await setRetention(site._id, 7, null), 200);
    expect(saved.retention).toEqual({ keepReleasesDays: 7, keepReleasesCount: null });
    expect(expectStatus(await owner.get(`/api/v1/sites/${site._id}`), 200).retention).toEqual(saved.retention);
  });

  it.each([
    [{ keepReleasesDays: 0, keepReleasesCount: 10 }, 'keepReleasesDays', 'Must be at least 1'],
    [{ keepReleasesDays: 1.5, keepReleasesCount: 10 }, 'keepReleasesDays', 'Must be a whole number'],
    [{ keepReleasesDays: 10, keepReleasesCount: '5' }, 'keepReleasesCount', 'Must be a number of releases'],
    [{ keepReleasesDays: 10 }, 'keepReleasesCount', 'Must be a number of releases'],
  ])('refuses the retention %j, changing nothing', async (body, field, message) => {
    const { site } = await newSite();
    const answer = await owner.put(`/api/v1/sites/${site._id}/retention`, body);
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('VALIDATION_FAILED');
    expect(answer.body.details).toEqual([{ field, message }]);
    expect(expectStatus(await owner.get(`/api/v1/sites/${site._id}`), 200).retention).toEqual({
      keepReleasesDays: 30,
      keepReleasesCount: 100,
    });
  });

  it('deletes releases no branch serves once older than the site keeps them, with their files; served ones stay', async () => {
    const { site, ci } = await newSite();
    await uploaded(ci, site._id, 'old');
    const served = await uploaded(ci, site._id, 'served');
    await uploaded(ci, site._id, 'preview', ['preview']);
    const oldFile = sha256(`<p>old of ${site._id}</p>`);

    await server.app.housekeeping.round(daysLater(29));
    expect(await releaseNames(site._id)).toEqual(['old', 'preview', 'served']);
    await server.app.housekeeping.round(daysLater(31));
    expect(await releaseNames(site._id)).toEqual(['preview', 'served']);

    expect(await server.app.db.selectFrom('blobs').select('hash').where('hash', '=', oldFile).execute()).toEqual([]);
    expect(await server.app.blobs.size(blobKey(oldFile))).toBeNull();
    const events = await server.app.db
      .selectFrom('events')
      .select(['actor_id', 'data'])
      .where('site_id', '=', site._id)
      .where('name', '=', 'site_release_deleted')
      .execute();
    expect(events.map((event) => [event.actor_id, JSON.parse(event.data)])).toEqual([
      [null, { releaseId: expect.any(String), name: 'old', reason: 'retention' }],
    ]);
    const main = await siteRequest(
      Number(new URL(server.url).port),
      new URL(served.deployedBranches[0]!.url).host,
      '/',
    );
    expect(main.text).toBe(`<p>served of ${site._id}</p>`);
  });

  it('keeps only the newest releases the site counts, and never a served one beyond them', async () => {
    const { site, ci } = await newSite();
    expectStatus(await setRetention(site._id, null, 2), 200);
    await uploaded(ci, site._id, 'first', ['pinned']);
    for (const name of ['second', 'third', 'fourth']) await uploaded(ci, site._id, name);
    await server.app.housekeeping.round(afterDeploysExpire());
    expect(await releaseNames(site._id)).toEqual(['first', 'fourth', 'third']);
    // With neither limit, nothing goes, however old.
    expectStatus(await setRetention(site._id, null, null), 200);
    await uploaded(ci, site._id, 'fifth');
    await server.app.housekeeping.round(daysLater(400));
    expect(await releaseNames(site._id)).toEqual(['fifth', 'first', 'fourth', 'third']);
  });

  it('deletes nothing while a backup holds the collection off, nor a release a deploy may still answer with', async () => {
    const { site, ci } = await newSite();
    expectStatus(await setRetention(site._id, null, 1), 200);
    await uploaded(ci, site._id, 'first');
    const content = `<p>first of ${site._id}</p>`;
    const files = [{ path: 'index.html', hash: sha256(content), size: content.length }];
    const deploy = expectStatus(
      // Forced: the files are those main serves already, and this deploy must make a release of its own.
      await ci.post(`/api/v1/sites/${site._id}/deploys`, { name: 'deployed', branches: ['main'], files, force: true }),
      200,
    );
    expectStatus(await ci.post(`/api/v1/deploys/${deploy._id}/finalize`), 200);
    await uploaded(ci, site._id, 'last');

    // Until its deploy expires, a client's retried finalise must still find the release it made.
    await server.app.housekeeping.round();
    expect(await releaseNames(site._id)).toEqual(['deployed', 'first', 'last']);
    const later = afterDeploysExpire();
    await holdingCollection(server.app.db, 'a backup in a test', () => server.app.housekeeping.round(later));
    expect(await releaseNames(site._id)).toEqual(['deployed', 'first', 'last']);
    await server.app.housekeeping.round(later);
    expect(await releaseNames(site._id)).toEqual(['last']);
  });

  it('deletes a branch once its upload-given expiry has passed, as a delete would; an upload renews or clears it', async () => {
    const { site, ci } = await newSite();
    await uploaded(ci, site._id, 'production');
    const preview = (await uploaded(ci, site._id, 'preview', ['pr-1'], '1h')).deployedBranches[0]!;
    const renewed = (await uploaded(ci, site._id, 'kept', ['pr-2'], '30m')).deployedBranches[0]!;
    const expiresAt = (branch: { expiresAt: string | null }) => branch.expiresAt && Date.parse(branch.expiresAt);
    expect(expiresAt(preview as never)).toBeGreaterThan(Date.now() + 3500_000);
    expect(expiresAt(preview as never)).toBeLessThanOrEqual(Date.now() + 3600_000);
    await uploaded(ci, site._id, 'kept again', ['pr-2']);
    const branches = expectStatus(await ci.get(`/api/v1/sites/${site._id}/branches`), 200) as {
      _id: string;
      name: string;
      expiresAt: string | null;
    }[];
    expect(branches.find((branch) => branch._id === renewed._id)?.expiresAt).toBeNull();

    await server.app.housekeeping.round(new Date(Date.now() + 2 * 3600_000));
    const left = expectStatus(await ci.get(`/api/v1/sites/${site._id}/branches`), 200) as { name: string }[];
    expect(left.map((branch) => branch.name).sort()).toEqual(['main', 'pr-2']);
    const deleted = await server.app.db
      .selectFrom('events')
      .select(['actor_id', 'data'])
      .where('site_id', '=', site._id)
      .where('name', '=', 'site_branch_deleted')
      .execute();
    expect(deleted.map((event) => [event.actor_id, JSON.parse(event.data)])).toEqual([
      [null, { branchId: preview._id, name: 'pr-1', expired: true }],
    ]);
    const host = new URL(preview.url).host;
    await expect.poll(async () => (await siteRequest(Number(new URL(server.url).port), host, '/')).status).toBe(404);
  });

  it('refuses an expiry for the main branch, or a malformed one, and changes nothing', async () => {
    const { site, ci } = await newSite();
    const toMain = await upload(ci, site._id, 'main', [], '14d');
    expect([toMain.status, toMain.body.code]).toEqual([409, 'MAIN_BRANCH_CANNOT_EXPIRE']);
    expect(toMain.body.message).toBe('The main branch (main) cannot expire; upload it without an expiry');
    const named = await ci.post(`/api/v1/sites/${site._id}/deploys`, {
      name: 'x',
      branches: ['main'],
      expires: '2d',
      files: [{ path: 'a.txt', hash: sha256('a'), size: 1 }],
    });
    expect([named.status, named.body.code]).toEqual([409, 'MAIN_BRANCH_CANNOT_EXPIRE']);
    for (const expires of ['14 days', '0d', '366d', '5w']) {
      const answer = await upload(ci, site._id, 'bad', ['pr-3'], expires);
      expect([answer.status, answer.body.code, answer.body.details?.[0]?.field]).toEqual([
        400,
        'VALIDATION_FAILED',
        'expires',
      ]);
    }
    expect(await releaseNames(site._id)).toEqual([]);
  });

  it("counts a site's disk as its releases' distinct files once each, with their compressed copies", async () => {
    const { site, ci } = await newSite();
    const shared = `<main>${'shared text '.repeat(100)}</main>`;
    const files = (names: string[]) => names.map((name) => ({ name, content: name === 'shared.html' ? shared : name }));
    for (const [name, entries] of [
      ['one', files(['shared.html', 'a.txt'])],
      ['two', files(['shared.html', 'b.txt'])],
    ] as const) {
      expectStatus(
        await ci.request('POST', `/api/v1/sites/${site._id}/releases`, uploadForm(await tarGz(entries), name)),
        200,
      );
    }
    // The compressed copies are made by a background job: measured once it has made them, as the
    // usage answer read after it would otherwise see more than the rows read before it (ci32).
    const readStored = () =>
      server.app.db
        .selectFrom('blobs')
        .selectAll()
        .where('hash', 'in', [sha256(shared), sha256('a.txt'), sha256('b.txt')])
        .execute();
    await expect
      .poll(async () => (await readStored()).filter((blob) => Number(blob.variants_pending) === 1).length, {
        timeout: 30_000,
      })
      .toBe(0);
    const stored = await readStored();
    const compressed = stored.reduce((sum, blob) => sum + Number(blob.br_size ?? 0) + Number(blob.gz_size ?? 0), 0);
    expect(expectStatus(await owner.get(`/api/v1/sites/${site._id}/usage`), 200)).toEqual({
      releases: 2,
      files: 3,
      bytes: shared.length + 'a.txt'.length + 'b.txt'.length,
      compressedBytes: compressed,
    });
  });

  it('removes files of the store that no row accounts for, once past the grace period and no backup holds them', async () => {
    const { site, ci } = await newSite();
    const kept = sha256(`<p>kept of ${site._id}</p>`);
    await uploaded(ci, site._id, 'kept');
    const orphan = sha256(`orphan ${site._id}`);
    const young = sha256(`young ${site._id}`);
    const orphanKeys = [blobKey(orphan), blobKey(orphan, 'br'), 'logos/sites/no-such-site'];
    for (const key of [...orphanKeys, blobKey(young)]) await server.app.blobs.put(key, Buffer.from(key));
    const anHourAgo = new Date(Date.now() - 3600_000);
    for (const key of [...orphanKeys, blobKey(kept)]) {
      await utimes(path.join(server.dataDir, 'blobs', key), anHourAgo, anHourAgo);
    }

    await holdingCollection(server.app.db, 'a backup in a test', () => server.app.housekeeping.round());
    for (const key of orphanKeys) expect(await server.app.blobs.size(key)).not.toBeNull();
    await server.app.housekeeping.round();
    for (const key of orphanKeys) expect(await server.app.blobs.size(key)).toBeNull();
    expect(await server.app.blobs.size(blobKey(young))).not.toBeNull();
    expect(await server.app.blobs.size(blobKey(kept))).not.toBeNull();
  });
});
