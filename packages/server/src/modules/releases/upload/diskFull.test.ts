import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256, tarGz, uploadForm } from '../../../../test/archives.ts';
import { expectStatus, signedIn, type TestClient } from '../../../../test/client.ts';
import { startTestServer, type TestServer } from '../../../../test/harness.ts';
import { mountSmallDisk, type SmallDisk } from '../../../../test/smallDisk.ts';
import { logoForm, PNG } from '../../../../test/world.ts';

const MiB = 1024 * 1024;

describe('a full disk', () => {
  let disk: SmallDisk;
  let server: TestServer;
  let owner: TestClient;
  let orgId: string;
  let siteId: string;

  beforeAll(async () => {
    disk = await mountSmallDisk(24 * MiB);
    server = await startTestServer({ dataDir: disk.dir });
    owner = await signedIn(server.url, 'owner');
    orgId = expectStatus(await owner.post('/api/v1/orgs', { name: 'Acme' }), 200)._id;
    const team = expectStatus(await owner.post(`/api/v1/orgs/${orgId}/teams`, { name: 'Web' }), 200);
    siteId = expectStatus(await owner.post(`/api/v1/teams/${team._id}/sites`, { name: 'full' }), 200)._id;
    const first = await tarGz([{ name: 'index.html', content: '<h1>Before the disk filled up</h1>' }]);
    expectStatus(await owner.request('POST', `/api/v1/sites/${siteId}/releases`, uploadForm(first, 'first')), 200);
  });
  afterAll(async () => {
    await server?.close();
    await disk?.unmount();
  });

  /** Every file of the blob store, staged ones included. */
  const storedFiles = async () =>
    (await readdir(path.join(disk.dir, 'blobs'), { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(disk.dir, path.join(entry.parentPath, entry.name)))
      .sort();
  const blobRows = async (hashes: string[]) =>
    server.app.db.selectFrom('blobs').select('hash').where('hash', 'in', hashes).execute();

  it('answers 507 DISK_FULL to an archive the disk cannot hold, and keeps none of the files it brought', async () => {
    const small = [randomBytes(MiB), randomBytes(MiB)];
    const archive = await tarGz([
      { name: 'a.bin', content: small[0]! },
      { name: 'b.bin', content: small[1]! },
      { name: 'huge.bin', content: randomBytes(32 * MiB) },
    ]);
    const filesBefore = await storedFiles();
    const freeBefore = await disk.free();
    const answer = await owner.request('POST', `/api/v1/sites/${siteId}/releases`, uploadForm(archive, 'too big'));
    expect(answer.status).toBe(507);
    expect(answer.body).toMatchObject({
      code: 'DISK_FULL',
      message: expect.stringMatching(/^The server's disk is full/),
    });
    // Right away, not at the next garbage collection: the two files that did fit are gone again.
    expect(await blobRows(small.map(sha256))).toEqual([]);
    expect(await storedFiles()).toEqual(filesBefore);
    expect(await disk.free()).toBeGreaterThan(freeBefore - MiB);
    expect(expectStatus(await owner.get(`/api/v1/sites/${siteId}/releases`), 200).count).toBe(1);
  });

  it('drops an incremental deploy the disk cannot hold, with the files it already took', async () => {
    const small = randomBytes(MiB);
    const huge = randomBytes(32 * MiB);
    const files = [
      { path: 'small.bin', hash: sha256(small), size: small.length },
      { path: 'huge.bin', hash: sha256(huge), size: huge.length },
    ];
    const deploy = expectStatus(
      await owner.post(`/api/v1/sites/${siteId}/deploys`, { name: 'too big', branches: [], files }),
      200,
    );
    const filesBefore = await storedFiles();
    const freeBefore = await disk.free();
    const put = (hash: string, body: Buffer) =>
      owner.request('PUT', `/api/v1/deploys/${deploy._id}/files/${hash}`, body, {
        'content-type': 'application/octet-stream',
      });
    expect((await put(files[0]!.hash, small)).status).toBe(204);
    const answer = await put(files[1]!.hash, huge);
    expect(answer.status).toBe(507);
    expect(answer.body.code).toBe('DISK_FULL');
    expect(await blobRows([files[0]!.hash])).toEqual([]);
    expect(await storedFiles()).toEqual(filesBefore);
    expect(await disk.free()).toBeGreaterThan(freeBefore - MiB);
    expect((await owner.post(`/api/v1/deploys/${deploy._id}/finalize`)).body.code).toBe('DEPLOY_NOT_FOUND');
  });

  it('answers 507 DISK_FULL to a logo on a full disk, and takes it once there is room', async () => {
    const logo = Buffer.concat([PNG, randomBytes(512 * 1024)]);
    const filesBefore = await storedFiles();
    const empty = await disk.fill(64 * 1024);
    try {
      const answer = await owner.request('POST', `/api/v1/orgs/${orgId}/logo`, logoForm(logo));
      expect(answer.status).toBe(507);
      expect(answer.body.code).toBe('DISK_FULL');
      // Not even the part that fitted stays behind.
      expect(await storedFiles()).toEqual(filesBefore);
    } finally {
      await empty();
    }
    expectStatus(await owner.request('POST', `/api/v1/orgs/${orgId}/logo`, logoForm(logo)), 200);
  });
});
