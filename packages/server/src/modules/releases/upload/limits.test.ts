import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tarGz, tarGzWithRawName, uploadForm } from '../../../../test/archives.ts';
import { expectStatus, signedIn, type TestClient } from '../../../../test/client.ts';
import { startTestServer, type TestServer } from '../../../../test/harness.ts';

describe('upload limits', () => {
  let server: TestServer;
  let owner: TestClient;
  let siteId: string;

  beforeAll(async () => {
    server = await startTestServer({
      env: {
        WHARF_MAX_RELEASE_FILES: '3',
        WHARF_MAX_ARCHIVE_BYTES: String(64 * 1024),
        WHARF_MAX_RELEASE_BYTES: String(100 * 1024),
      },
    });
    owner = await signedIn(server.url, 'owner');
    const org = expectStatus(await owner.post('/api/v1/orgs', { name: 'Acme' }), 200);
    const team = expectStatus(await owner.post(`/api/v1/orgs/${org._id}/teams`, { name: 'Web' }), 200);
    siteId = expectStatus(await owner.post(`/api/v1/teams/${team._id}/sites`, { name: 'limits' }), 200)._id;
  });
  afterAll(() => server.close());

  const upload = (archive: Buffer) =>
    owner.request('POST', `/api/v1/sites/${siteId}/releases`, uploadForm(archive, 'r'));

  it('refuses more files than allowed with 413', async () => {
    const files = ['a', 'b', 'c', 'd'].map((name) => ({ name: `${name}.txt`, content: name }));
    const answer = await upload(await tarGz(files));
    expect(answer.status).toBe(413);
    expect(answer.body.message).toBe('The release has more than 3 files');
  });

  it('refuses an archive larger than allowed with 413', async () => {
    const random = Buffer.from(Array.from({ length: 96 * 1024 }, () => Math.floor(Math.random() * 256)));
    const answer = await upload(await tarGz([{ name: 'noise.bin', content: random }]));
    expect(answer.status).toBe(413);
    expect(answer.body.message).toMatch(/^The archive is larger than/);
  });

  it('refuses a release larger than allowed once unpacked, with 413', async () => {
    const answer = await upload(await tarGz([{ name: 'zeros.bin', content: Buffer.alloc(200 * 1024) }]));
    expect(answer.status).toBe(413);
    expect(answer.body.message).toMatch(/uncompressed$/);
  });

  it('refuses an entry whose name is not UTF-8, naming it', async () => {
    const answer = await upload(await tarGzWithRawName(Buffer.from([0x66, 0xff, 0xfe, 0x2e, 0x74, 0x78, 0x74]), 'x'));
    expect(answer.status).toBe(400);
    expect(answer.body.message).toMatch(/^Archive entry "f.*\.txt" has a name that is not valid UTF-8$/);
  });

  it('keeps serving nothing new after all those refusals', async () => {
    expect(expectStatus(await owner.get(`/api/v1/sites/${siteId}/releases`), 200).count).toBe(0);
  });
});
