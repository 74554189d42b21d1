import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../../../test/archives.ts';
import { expectStatus, signedIn, type TestClient } from '../../../../test/client.ts';
import { databases, startTestServer, type TestServer } from '../../../../test/harness.ts';
import { type RawEnding, rawRequest, tarHeader } from '../../../../test/rawUpload.ts';
import { blobKey } from '../../../releaseFiles/blobKeys.ts';

const IDLE_SECONDS = 1;
const DEADLINE_SECONDS = 4;
/** Room for a loaded machine between a timeout and its answer. */
const SLACK_MS = 3_000;
const TIB = 1024 ** 4;

describe.each(databases)('upload bodies that end early, lie or stall, on $name', ({ postgres }) => {
  let server: TestServer;
  let owner: TestClient;
  let siteId: string;
  let token: string;

  beforeAll(async () => {
    server = await startTestServer({
      postgres,
      env: { WHARF_UPLOAD_IDLE_SECONDS: String(IDLE_SECONDS), WHARF_UPLOAD_DEADLINE_SECONDS: String(DEADLINE_SECONDS) },
    });
    owner = await signedIn(server.url, 'owner');
    const org = expectStatus(await owner.post('/api/v1/orgs', { name: 'Acme' }), 200);
    const team = expectStatus(await owner.post(`/api/v1/orgs/${org._id}/teams`, { name: 'Web' }), 200);
    const site = expectStatus(await owner.post(`/api/v1/teams/${team._id}/sites`, { name: 'bodies' }), 200);
    siteId = site._id;
    token = expectStatus(await owner.post(`/api/v1/sites/${siteId}/tokens`, { name: 'ci' }), 200).value;
  });
  afterAll(() => server.close());

  /** An open deploy of one file of `size` bytes that no upload has brought yet. */
  async function deployOfOneFile(size: number) {
    const content = `${Math.random()}`;
    const hash = sha256(content);
    const client = owner.withToken(token);
    const body = { name: 'bodies', branches: [], files: [{ path: 'file.bin', hash, size }] };
    const deploy = expectStatus(await client.post(`/api/v1/sites/${siteId}/deploys`, body), 200);
    return { deployId: deploy._id as string, hash };
  }

  const send = (method: string, route: string, headers: Record<string, string>, body: Buffer, ending: RawEnding) =>
    rawRequest(
      server.url,
      { method, path: route, headers: { authorization: `Bearer ${token}`, ...headers } },
      body,
      ending,
    );

  /** Nothing of the upload stays: the staging folder is empty, and the hash has neither row nor file. */
  async function expectNothingLeft(hash: string) {
    const staging = path.join(server.dataDir, 'blobs', '.staging');
    await expect.poll(async () => readdir(staging).catch(() => []), { timeout: 5_000 }).toEqual([]);
    expect(await server.app.db.selectFrom('blobs').select('hash').where('hash', '=', hash).execute()).toEqual([]);
    await expect(stat(path.join(server.dataDir, 'blobs', blobKey(hash)))).rejects.toThrow(/ENOENT/);
  }

  it('answers 400 at once to a batch whose tar entry claims 1 TiB and ends 6 bytes later', async () => {
    const { deployId, hash } = await deployOfOneFile(100);
    const body = Buffer.concat([tarHeader(hash, TIB), Buffer.from('sixbyt')]);
    const answer = await send(
      'POST',
      `/api/v1/deploys/${deployId}/files`,
      { 'content-type': 'application/x-tar', 'content-length': String(body.length) },
      body,
      'stall',
    );
    expect({ status: answer.status, code: answer.code }).toEqual({ status: 400, code: 'ARCHIVE_INVALID' });
    expect(answer.afterMs).toBeLessThan(SLACK_MS);
    await expectNothingLeft(hash);
  });

  /** The ways files arrive, each given the start of a body far shorter than its head says. */
  const routes = [
    {
      route: 'a batch of files',
      request: async () => {
        const { deployId, hash } = await deployOfOneFile(100);
        const start = Buffer.concat([tarHeader(hash, 100), Buffer.from('sixbyt')]);
        return { hash, method: 'POST', path: `/api/v1/deploys/${deployId}/files`, type: 'application/x-tar', start };
      },
    },
    {
      route: 'a single file',
      request: async () => {
        const { deployId, hash } = await deployOfOneFile(100);
        const path = `/api/v1/deploys/${deployId}/files/${hash}`;
        return { hash, method: 'PUT', path, type: 'application/octet-stream', start: Buffer.from('sixbyt') };
      },
    },
    {
      route: 'an archive upload',
      request: async () => {
        const boundary = 'wharf-raw-test';
        const start = Buffer.from(
          `--${boundary}\r\ncontent-disposition: form-data; name="name"\r\n\r\nraw\r\n` +
            `--${boundary}\r\ncontent-disposition: form-data; name="expires"\r\n\r\n1`,
        );
        const type = `multipart/form-data; boundary=${boundary}`;
        return {
          hash: sha256('no such content'),
          method: 'POST',
          path: `/api/v1/sites/${siteId}/releases`,
          type,
          start,
        };
      },
    },
    {
      route: 'an archive upload, inside its archive',
      request: async () => {
        const boundary = 'wharf-raw-test';
        // A gzip header, then a stored deflate block that says 65535 bytes follow: valid so far.
        const gzipStart = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff, 0, 0xff, 0xff, 0, 0]);
        const start = Buffer.concat([
          Buffer.from(
            `--${boundary}\r\ncontent-disposition: form-data; name="name"\r\n\r\nraw\r\n` +
              `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="site.tar.gz"\r\n` +
              'content-type: application/gzip\r\n\r\n',
          ),
          gzipStart,
        ]);
        const type = `multipart/form-data; boundary=${boundary}`;
        return {
          hash: sha256('no such content'),
          method: 'POST',
          path: `/api/v1/sites/${siteId}/releases`,
          type,
          start,
        };
      },
    },
  ];

  describe.each(routes)('$route', ({ request }) => {
    it('answers 408 UPLOAD_TIMEOUT when the body stops arriving, and keeps nothing', async () => {
      const { hash, method, path, type, start } = await request();
      const headers = { 'content-type': type, 'content-length': String(start.length + 10_000) };
      const answer = await send(method, path, headers, start, 'stall');
      expect({ status: answer.status, code: answer.code }).toEqual({ status: 408, code: 'UPLOAD_TIMEOUT' });
      expect(answer.afterMs).toBeLessThan(IDLE_SECONDS * 1000 + SLACK_MS);
      await expectNothingLeft(hash);
    });

    it('answers 408 UPLOAD_TIMEOUT when a body trickling in takes longer than the deadline, and keeps nothing', async () => {
      const { hash, method, path, type, start } = await request();
      const headers = { 'content-type': type, 'transfer-encoding': 'chunked' };
      const chunked = Buffer.concat([Buffer.from(`${start.length.toString(16)}\r\n`), start, Buffer.from('\r\n')]);
      // One-byte chunks, well within the idle timeout, never ending.
      const answer = await send(method, path, headers, chunked, { trickleEveryMs: 200, chunked: true });
      expect({ status: answer.status, code: answer.code }).toEqual({ status: 408, code: 'UPLOAD_TIMEOUT' });
      expect(answer.afterMs).toBeGreaterThanOrEqual(DEADLINE_SECONDS * 1000 - 100);
      expect(answer.afterMs).toBeLessThan(DEADLINE_SECONDS * 1000 + SLACK_MS);
      await expectNothingLeft(hash);
    });

    it('answers 400 UPLOAD_INCOMPLETE when the client ends its side before the body is whole, and keeps nothing', async () => {
      const { hash, method, path, type, start } = await request();
      const headers = { 'content-type': type, 'content-length': String(start.length + 10_000) };
      const answer = await send(method, path, headers, start, 'half-close');
      expect({ status: answer.status, code: answer.code }).toEqual({ status: 400, code: 'UPLOAD_INCOMPLETE' });
      expect(answer.afterMs).toBeLessThan(SLACK_MS);
      await expectNothingLeft(hash);
    });
  });
});
