import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256, tarGz, uploadForm } from '../../../../test/archives.ts';
import { expectStatus, signedIn, type TestClient } from '../../../../test/client.ts';
import { databases, startTestServer, type TestServer } from '../../../../test/harness.ts';
import { siteRequest } from '../../../../test/siteClient.ts';

/** A site in an organization of its own, owned by `client`. */
async function siteOf(client: TestClient, orgName: string, siteName: string) {
  const org = expectStatus(await client.post('/api/v1/orgs', { name: orgName }), 200);
  const team = expectStatus(await client.post(`/api/v1/orgs/${org._id}/teams`, { name: 'Web' }), 200);
  return expectStatus(await client.post(`/api/v1/teams/${team._id}/sites`, { name: siteName }), 200);
}

describe.each(databases)('files shared between organizations on $name', ({ postgres }) => {
  const secret = `payroll of Acme, ${Date.now()}: nobody else may read this`;
  const hash = sha256(secret);
  const manifest = [{ path: 'stolen.txt', hash, size: Buffer.byteLength(secret) }];
  let server: TestServer;
  let acme: TestClient;
  let intruder: TestClient;
  let intruderSite: { _id: string; name: string };

  beforeAll(async () => {
    server = await startTestServer({ postgres });
    acme = await signedIn(server.url, 'owner');
    intruder = await signedIn(server.url, 'outsider');
    const acmeSite = await siteOf(acme, 'Acme', `acme-${postgres ? 'pg' : 'lite'}`);
    intruderSite = await siteOf(intruder, 'Elsewhere', `elsewhere-${postgres ? 'pg' : 'lite'}`);
    const archive = await tarGz([{ name: 'payroll.txt', content: secret }]);
    expectStatus(
      await acme.request('POST', `/api/v1/sites/${acmeSite._id}/releases`, uploadForm(archive, 'payroll')),
      200,
    );
  });
  afterAll(() => server.close());

  const served = async (branchUrl: string, pathname: string) =>
    siteRequest(Number(new URL(server.url).port), new URL(branchUrl).host, pathname);
  const storedCopies = async () =>
    (await readdir(path.join(server.dataDir, 'blobs'), { recursive: true })).filter((name) => name.endsWith(hash));

  it('does not let another organization obtain a file by announcing its hash, and stores it once when it sends the bytes', async () => {
    const deploy = expectStatus(
      await intruder.post(`/api/v1/sites/${intruderSite._id}/deploys`, {
        name: 'heist',
        branches: [],
        files: manifest,
      }),
      200,
    );
    // Told to upload it, like any file the server has never seen: the answer reveals nothing.
    expect(deploy.missing).toEqual([hash]);
    const finalise = await intruder.post(`/api/v1/deploys/${deploy._id}/finalize`);
    expect(finalise.status).toBe(409);
    expect(finalise.body.code).toBe('DEPLOY_INCOMPLETE');
    expect(expectStatus(await intruder.get(`/api/v1/sites/${intruderSite._id}/releases`), 200).count).toBe(0);

    // Sending the bytes proves having them; the server still keeps one copy.
    const put = await intruder.request('PUT', `/api/v1/deploys/${deploy._id}/files/${hash}`, secret, {
      'content-type': 'application/octet-stream',
    });
    expect(put.status).toBe(204);
    const release = expectStatus(await intruder.post(`/api/v1/deploys/${deploy._id}/finalize`), 200);
    expect((await served(release.deployedBranches[0].url, '/stolen.txt')).text).toBe(secret);
    expect(await storedCopies()).toHaveLength(1);
    const rows = await server.app.db.selectFrom('blobs').select('hash').where('hash', '=', hash).execute();
    expect(rows).toHaveLength(1);

    // From now on the server has it for this organization too.
    const again = expectStatus(
      await intruder.post(`/api/v1/sites/${intruderSite._id}/deploys`, {
        name: 'again',
        branches: [],
        files: manifest,
      }),
      200,
    );
    expect(again.missing).toEqual([]);
  });
});
