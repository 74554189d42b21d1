import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256, tarBytes, tarGz, uploadForm } from '../../test/archives.ts';
import { expectStatus, signedIn, type TestClient } from '../../test/client.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { type S3Peer, startS3Peer } from '../../test/s3Peer.ts';
import { siteRequest } from '../../test/siteClient.ts';
import { collectGarbage } from '../modules/releases/collect/gc.ts';
import { removeOrphanFiles } from '../modules/releases/collect/orphanFiles.ts';
import { blobKey } from '../releaseFiles/blobKeys.ts';

const PREFIX = 'installation-one';

describe('Wharf keeping its files in an S3-compatible bucket', () => {
  let s3: S3Peer;
  let server: TestServer;
  let owner: TestClient;
  let siteId: string;
  const page = '<h1>From the bucket</h1>'.repeat(40);
  const large = randomBytes(3 * 1024 * 1024);

  beforeAll(async () => {
    s3 = await startS3Peer();
    server = await startTestServer({ env: s3.env(PREFIX) });
    owner = await signedIn(server.url, 'owner');
    const org = expectStatus(await owner.post('/api/v1/orgs', { name: 'Acme' }), 200);
    const team = expectStatus(await owner.post(`/api/v1/orgs/${org._id}/teams`, { name: 'Web' }), 200);
    siteId = expectStatus(await owner.post(`/api/v1/teams/${team._id}/sites`, { name: 'bucketed' }), 200)._id;
  });
  afterAll(async () => {
    await server?.close();
    await s3?.close();
  });

  const served = (url: string, pathname: string, headers: Record<string, string> = {}) =>
    siteRequest(Number(new URL(server.url).port), new URL(url).host, pathname, { headers });

  it('stores an archive’s files in the bucket, serves them whole and in ranges, and compresses them there', async () => {
    const archive = await tarGz([
      { name: 'index.html', content: page },
      { name: 'video.bin', content: large },
    ]);
    const release = expectStatus(
      await owner.request('POST', `/api/v1/sites/${siteId}/releases`, uploadForm(archive, 'first')),
      200,
    );
    const keys = await s3.keys(PREFIX);
    expect(keys).toEqual(expect.arrayContaining([blobKey(sha256(page)), blobKey(sha256(large))]));
    const url = release.deployedBranches[0].url;
    expect((await served(url, '/')).text).toBe(page);
    const range = await served(url, '/video.bin', { range: 'bytes=1000-1999' });
    expect(range.status).toBe(206);
    expect(Buffer.from(range.body).equals(large.subarray(1000, 2000))).toBe(true);
    // The variants are made from a copy of the blob, and stored beside it in the bucket.
    await expect
      .poll(async () => (await s3.keys(PREFIX)).includes(blobKey(sha256(page), 'br')), { timeout: 20_000 })
      .toBe(true);
    const compressed = await served(url, '/', { 'accept-encoding': 'br' });
    expect(compressed.headers['content-encoding']).toBe('br');
  });

  it('takes a deploy’s files in a batch into the bucket', async () => {
    const files = { 'a.txt': 'first file in a batch', 'b.txt': 'second file in a batch' };
    const manifest = Object.entries(files).map(([path, content]) => ({
      path,
      hash: sha256(content),
      size: content.length,
    }));
    const deploy = expectStatus(
      await owner.post(`/api/v1/sites/${siteId}/deploys`, { name: 'batch', branches: ['preview'], files: manifest }),
      200,
    );
    const tar = await tarBytes(Object.values(files).map((content) => ({ name: sha256(content), content })));
    const sent = await owner.request('POST', `/api/v1/deploys/${deploy._id}/files`, tar, {
      'content-type': 'application/x-tar',
    });
    expect(sent.status).toBe(204);
    const release = expectStatus(await owner.post(`/api/v1/deploys/${deploy._id}/finalize`), 200);
    expect((await served(release.deployedBranches[0].url, '/b.txt')).text).toBe(files['b.txt']);
    expect(await s3.keys(PREFIX)).toEqual(expect.arrayContaining(manifest.map((file) => blobKey(file.hash))));
  });

  it('collects files no release uses from the bucket, and objects no row accounts for', async () => {
    const releases = expectStatus(await owner.get(`/api/v1/sites/${siteId}/releases`), 200).items;
    const preview = releases.find((release: { name: string }) => release.name === 'batch');
    const branches = expectStatus(await owner.get(`/api/v1/sites/${siteId}/branches`), 200);
    const previewBranch = branches.find((branch: { name: string }) => branch.name === 'preview');
    expectStatus(await owner.delete(`/api/v1/sites/${siteId}/branches/${previewBranch._id}`), 204);
    expectStatus(await owner.delete(`/api/v1/releases/${preview._id}`), 204);
    const later = new Date(Date.now() + 24 * 3600_000);
    await collectGarbage(server.app, later);
    expect(await s3.keys(PREFIX)).not.toContain(blobKey(sha256('first file in a batch')));
    expect(await s3.keys(PREFIX)).toContain(blobKey(sha256(page)));

    await server.app.blobs.put(blobKey(sha256('left by a crash')), Buffer.from('left by a crash'));
    await removeOrphanFiles(server.app, 60_000, later);
    expect(await s3.keys(PREFIX)).not.toContain(blobKey(sha256('left by a crash')));
    expect(await s3.keys(PREFIX)).toContain(blobKey(sha256(page)));
  });
});
