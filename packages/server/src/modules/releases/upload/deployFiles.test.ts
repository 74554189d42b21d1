import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256, tarBytes, tarGz, uploadForm } from '../../../../test/archives.ts';
import { expectStatus, signedIn, type TestClient } from '../../../../test/client.ts';
import { databases, startTestServer, type TestServer } from '../../../../test/harness.ts';
import { siteRequest } from '../../../../test/siteClient.ts';
import { blobKey } from '../../../releaseFiles/blobKeys.ts';

/** A site in an organization of its own, with a site token to upload with. */
async function siteOf(owner: TestClient, orgName: string, siteName: string) {
  const org = expectStatus(await owner.post('/api/v1/orgs', { name: orgName }), 200);
  const team = expectStatus(await owner.post(`/api/v1/orgs/${org._id}/teams`, { name: 'Web' }), 200);
  const site = expectStatus(await owner.post(`/api/v1/teams/${team._id}/sites`, { name: siteName }), 200);
  const token = expectStatus(await owner.post(`/api/v1/sites/${site._id}/tokens`, { name: 'ci' }), 200);
  return { siteId: site._id as string, token: owner.withToken(token.value) };
}

/** Files of a release by path, with the manifest that announces them. */
function filesOf(contents: Record<string, string>) {
  const manifest = Object.entries(contents).map(([path, content]) => ({
    path,
    hash: sha256(content),
    size: Buffer.byteLength(content),
  }));
  return { contents, manifest };
}

/** A tar whose entries are named by the sha256 of `contents`, unless `names` says otherwise. */
const batchOf = (contents: string[], names: string[] = contents.map((content) => sha256(content))) =>
  tarBytes(contents.map((content, index) => ({ name: names[index]!, content })));

describe.each(databases)('deploy files sent together on $name', ({ postgres }) => {
  let server: TestServer;
  let owner: TestClient;
  let site: Awaited<ReturnType<typeof siteOf>>;
  const suffix = postgres ? 'pg' : 'lite';

  beforeAll(async () => {
    server = await startTestServer({ postgres });
    owner = await signedIn(server.url, 'owner');
    site = await siteOf(owner, 'Acme', `batches-${suffix}`);
  });
  afterAll(() => server.close());

  const startDeploy = async (client: TestClient, siteId: string, manifest: unknown[]) =>
    expectStatus(
      await client.post(`/api/v1/sites/${siteId}/deploys`, { name: 'batch', branches: [], files: manifest }),
      200,
    );
  const sendBatch = (client: TestClient, deployId: string, body: Buffer | string, type = 'application/x-tar') =>
    client.request('POST', `/api/v1/deploys/${deployId}/files`, body, { 'content-type': type });
  const served = async (branchUrl: string, pathname: string) =>
    (await siteRequest(Number(new URL(server.url).port), new URL(branchUrl).host, pathname)).text;
  const storedFile = (hash: string) => path.join(server.dataDir, 'blobs', blobKey(hash));
  const blobRows = (hashes: string[]) =>
    server.app.db.selectFrom('blobs').select('hash').where('hash', 'in', hashes).execute();

  it('takes many files in one tar named by their hashes, and the release serves them', async () => {
    // More files than one commit takes, so that the request is stored in several steps.
    const pages = Object.fromEntries(Array.from({ length: 600 }, (_, n) => [`page-${n}.txt`, `page ${n} ${suffix}`]));
    const { contents, manifest } = filesOf({ ...pages, 'app.js': `console.log("${suffix}")` });
    const deploy = await startDeploy(site.token, site.siteId, manifest);
    expect(deploy.missing).toHaveLength(601);
    expect((await sendBatch(site.token, deploy._id, await batchOf(Object.values(contents)))).status).toBe(204);
    const release = expectStatus(await site.token.post(`/api/v1/deploys/${deploy._id}/finalize`), 200);
    expect(release.fileCount).toBe(601);
    const url = release.deployedBranches[0].url;
    expect(await served(url, '/page-599.txt')).toBe(`page 599 ${suffix}`);
    expect(await served(url, '/app.js')).toBe(`console.log("${suffix}")`);
    expect(await blobRows(manifest.map((file) => file.hash))).toHaveLength(601);
  });

  it('takes a batch of only empty files, the same one twice, and the release serves them empty', async () => {
    const { manifest } = filesOf({ '.nojekyll': '', 'robots.txt': '', [`empty-${suffix}.txt`]: '' });
    const deploy = await startDeploy(site.token, site.siteId, manifest);
    expect((await sendBatch(site.token, deploy._id, await batchOf(['', '']))).status).toBe(204);
    const release = expectStatus(await site.token.post(`/api/v1/deploys/${deploy._id}/finalize`), 200);
    expect(release.fileCount).toBe(3);
    const answer = await siteRequest(
      Number(new URL(server.url).port),
      new URL(release.deployedBranches[0].url).host,
      '/robots.txt',
    );
    expect({ status: answer.status, bytes: answer.body.length }).toEqual({ status: 200, bytes: 0 });
  });

  it('refuses a batch with a file the deploy does not announce, or bytes that are not what their name says, and keeps none of it', async () => {
    const { contents, manifest } = filesOf({ 'a.html': `<p>a ${suffix}</p>`, 'b.html': `<p>b ${suffix}</p>` });
    const deploy = await startDeploy(site.token, site.siteId, manifest);
    const stranger = `not announced ${suffix}`;
    const unknown = await sendBatch(site.token, deploy._id, await batchOf([contents['a.html']!, stranger]));
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('DEPLOY_FILE_UNKNOWN');
    const tampered = await sendBatch(
      site.token,
      deploy._id,
      await batchOf(['tampered!', contents['b.html']!], [manifest[0]!.hash, manifest[1]!.hash]),
    );
    expect(tampered.status).toBe(400);
    expect(tampered.body.code).toBe('DEPLOY_HASH_MISMATCH');
    expect(await blobRows([...manifest.map((file) => file.hash), sha256(stranger), sha256('tampered!')])).toEqual([]);
    for (const hash of [...manifest.map((file) => file.hash), sha256(stranger), sha256('tampered!')])
      await expect(stat(storedFile(hash))).rejects.toThrow(/ENOENT/);
    expect((await site.token.post(`/api/v1/deploys/${deploy._id}/finalize`)).body.code).toBe('DEPLOY_INCOMPLETE');
  });

  it('refuses what is not a tar of files named by their hashes, and a body of another type', async () => {
    const { contents, manifest } = filesOf({ 'c.html': `<p>c ${suffix}</p>` });
    const deploy = await startDeploy(site.token, site.siteId, manifest);
    const named = await sendBatch(site.token, deploy._id, await batchOf([contents['c.html']!], ['c.html']));
    expect(named.status).toBe(400);
    expect(named.body.code).toBe('ARCHIVE_INVALID');
    const garbage = await sendBatch(site.token, deploy._id, 'x'.repeat(2000));
    expect(garbage.status).toBe(400);
    expect(garbage.body.code).toBe('ARCHIVE_INVALID');
    const json = await sendBatch(site.token, deploy._id, '{}', 'application/json');
    expect(json.status).toBe(415);
    expect(json.body.code).toBe('MEDIA_TYPE_UNSUPPORTED');
    const outsider = await signedIn(server.url, 'outsider');
    const refused = await sendBatch(outsider, deploy._id, await batchOf([contents['c.html']!]));
    // An outsider learns nothing of the deploy, not even that it exists.
    expect(refused.status).toBe(404);
  });

  it('keeps one copy of content another organization stored, and stores again a file that went missing', async () => {
    const shared = `shared between organizations ${suffix}`;
    const { manifest } = filesOf({ 'shared.txt': shared });
    const other = await siteOf(owner, 'Elsewhere', `elsewhere-${suffix}`);
    expectStatus(
      await other.token.request(
        'POST',
        `/api/v1/sites/${other.siteId}/releases`,
        uploadForm(await tarGz([{ name: 'shared.txt', content: shared }]), 'first'),
      ),
      200,
    );
    const storedAt = (await stat(storedFile(manifest[0]!.hash))).ino;
    // Acme has never sent it: it must, and the store keeps the copy it has.
    const deploy = await startDeploy(site.token, site.siteId, manifest);
    expect(deploy.missing).toEqual([manifest[0]!.hash]);
    expect(
      (
        await sendBatch(
          site.token,
          deploy._id,
          await batchOf([shared, `${shared}!`], [manifest[0]!.hash, sha256(`${shared}!`)]),
        )
      ).body.code,
    ).toBe('DEPLOY_FILE_UNKNOWN');
    expect((await sendBatch(site.token, deploy._id, await batchOf([shared]))).status).toBe(204);
    expect((await stat(storedFile(manifest[0]!.hash))).ino).toBe(storedAt);
    expectStatus(await site.token.post(`/api/v1/deploys/${deploy._id}/finalize`), 200);
    expect((await startDeploy(site.token, site.siteId, manifest)).missing).toEqual([]);

    // The file lost from the store (by hand, a broken disk): its row no longer counts, and a batch brings it back.
    await rm(storedFile(manifest[0]!.hash));
    const withOther = filesOf({ 'shared.txt': shared, 'other.txt': `other ${suffix}` });
    const again = await startDeploy(site.token, site.siteId, withOther.manifest);
    expect((await sendBatch(site.token, again._id, await batchOf(Object.values(withOther.contents)))).status).toBe(204);
    const release = expectStatus(await site.token.post(`/api/v1/deploys/${again._id}/finalize`), 200);
    expect(await served(release.deployedBranches[0].url, '/shared.txt')).toBe(shared);
  });
});
