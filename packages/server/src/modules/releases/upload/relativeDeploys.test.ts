import { gzipSync, zstdCompressSync } from 'node:zlib';
import { manifestDigestText } from '@wharf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256, tarBytes, tarGz, uploadForm } from '../../../../test/archives.ts';
import { expectStatus, signedIn, type TestClient } from '../../../../test/client.ts';
import { databases, startTestServer, type TestServer } from '../../../../test/harness.ts';
import { siteRequest } from '../../../../test/siteClient.ts';

type Entry = { path: string; hash: string; size: number };

const entryOf = (path: string, content: string): Entry => ({
  path,
  hash: sha256(content),
  size: Buffer.byteLength(content),
});
const digestOf = (entries: Entry[]) => sha256(manifestDigestText(entries));

describe.each(databases)('deploys relative to a release, with compressed bodies, on $name', ({ postgres }) => {
  let server: TestServer;
  let owner: TestClient;
  let token: TestClient;
  let siteId: string;
  let otherSiteToken: TestClient;
  let otherSiteId: string;
  const suffix = postgres ? 'pg' : 'lite';

  async function newSite(teamId: string, name: string) {
    const site = expectStatus(await owner.post(`/api/v1/teams/${teamId}/sites`, { name }), 200);
    const siteToken = expectStatus(await owner.post(`/api/v1/sites/${site._id}/tokens`, { name: 'ci' }), 200);
    return { id: site._id as string, token: owner.withToken(siteToken.value) };
  }

  beforeAll(async () => {
    server = await startTestServer({ postgres });
    owner = await signedIn(server.url, 'owner');
    const org = expectStatus(await owner.post('/api/v1/orgs', { name: 'Acme' }), 200);
    const team = expectStatus(await owner.post(`/api/v1/orgs/${org._id}/teams`, { name: 'Web' }), 200);
    ({ id: siteId, token } = await newSite(team._id, `relative-${suffix}`));
    ({ id: otherSiteId, token: otherSiteToken } = await newSite(team._id, `other-${suffix}`));
  });
  afterAll(() => server.close());

  const post = (client: TestClient, path: string, body: Buffer | string, headers: Record<string, string>) =>
    client.request('POST', path, body, headers);
  const startDeploy = (body: object, headers: Record<string, string> = {}) =>
    post(token, `/api/v1/sites/${siteId}/deploys`, JSON.stringify(body), {
      'content-type': 'application/json',
      ...headers,
    });
  const finalize = async (deployId: string) =>
    expectStatus(await token.post(`/api/v1/deploys/${deployId}/finalize`), 200);
  const served = async (url: string, pathname: string) =>
    siteRequest(Number(new URL(server.url).port), new URL(url).host, pathname);
  const deployCount = async () =>
    Number(
      (
        await server.app.db
          .selectFrom('deploys')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  /** Deploys `contents` whole to the branch `live` and answers the release. */
  async function deployWhole(contents: Record<string, string>) {
    const files = Object.entries(contents).map(([path, content]) => entryOf(path, content));
    const deploy = expectStatus(await startDeploy({ name: 'whole', branches: ['live'], files }), 200);
    const tar = await tarBytes(Object.values(contents).map((content) => ({ name: sha256(content), content })));
    const sent = await post(token, `/api/v1/deploys/${deploy._id}/files`, tar, { 'content-type': 'application/x-tar' });
    expect(sent.status).toBe(204);
    return finalize(deploy._id);
  }

  it('lists what the branch serves as paths and hash starts, compressed as the client accepts', async () => {
    const none = expectStatus(await token.get(`/api/v1/sites/${siteId}/deploys/base?branch=live`), 200);
    expect(none).toEqual({ encodings: ['zstd', 'gzip'], release: null });
    const release = await deployWhole({ 'index.html': `<h1>${suffix}</h1>`, 'app.js': 'let a = 1' });
    for (const coding of ['zstd', 'gzip', 'identity']) {
      const answer = await token.request('GET', `/api/v1/sites/${siteId}/deploys/base?branch=live`, undefined, {
        'accept-encoding': coding,
      });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-encoding')).toBe(coding === 'identity' ? null : coding);
      expect(answer.body.release._id).toBe(release._id);
      expect(answer.body.release.files.sort()).toEqual(
        [
          ['app.js', sha256('let a = 1').slice(0, 16)],
          ['index.html', sha256(`<h1>${suffix}</h1>`).slice(0, 16)],
        ].sort(),
      );
    }
    // Without a branch: the site's main branch, which serves nothing yet.
    expect(expectStatus(await token.get(`/api/v1/sites/${siteId}/deploys/base`), 200).release).toBeNull();
  });

  it('refuses the listing to a token of another site before reading anything', async () => {
    const answer = await otherSiteToken.get(`/api/v1/sites/${siteId}/deploys/base?branch=live`);
    expect(answer.status).toBeGreaterThanOrEqual(403);
    expect(answer.status).toBeLessThan(405);
  });

  it('makes a release from the changes alone: what changed travels, what was removed is gone', async () => {
    const before = { 'index.html': '<h1>v1</h1>', 'old.txt': 'old', 'keep.css': 'body{}' };
    const base = await deployWhole(before);
    // copy.css is new to the release, but its bytes are the organization's already.
    const after = {
      'index.html': '<h1>v2</h1>',
      'keep.css': 'body{}',
      'new.txt': `new ${suffix}`,
      'copy.css': 'body{}',
    };
    const whole = Object.entries(after).map(([path, content]) => entryOf(path, content));
    const body = {
      name: 'relative',
      branches: ['live'],
      files: [entryOf('index.html', '<h1>v2</h1>'), entryOf('new.txt', `new ${suffix}`), entryOf('copy.css', 'body{}')],
      removed: ['old.txt'],
      base: { release: base._id, digest: digestOf(whole) },
    };
    const deploy = expectStatus(await startDeploy(body), 200);
    expect(deploy.missing.sort()).toEqual([sha256('<h1>v2</h1>'), sha256(`new ${suffix}`)].sort());
    // The finalise looks for the files the manifest found missing, and those alone: the base's
    // are held by the deploy since.
    const rows = await server.app.db
      .selectFrom('deploy_files')
      .select(['path', 'held'])
      .where('deploy_id', '=', deploy._id)
      .orderBy('path')
      .execute();
    expect(rows.map((row) => [row.path, Number(row.held)])).toEqual([
      ['copy.css', 1],
      ['index.html', 0],
      ['keep.css', 1],
      ['new.txt', 0],
    ]);
    const early = await token.post(`/api/v1/deploys/${deploy._id}/finalize`);
    expect([early.status, early.body.code]).toEqual([409, 'DEPLOY_INCOMPLETE']);
    expect(early.body.message).toMatch(/^2 files are still missing/);
    for (const content of ['<h1>v2</h1>', `new ${suffix}`]) {
      const sent = await token.request(
        'PUT',
        `/api/v1/deploys/${deploy._id}/files/${sha256(content)}`,
        Buffer.from(content),
        {
          'content-type': 'application/octet-stream',
        },
      );
      expect(sent.status).toBe(204);
    }
    const release = await finalize(deploy._id);
    expect(release.fileCount).toBe(4);
    // What the organization first stored during the deploy: the two files sent, not the kept one.
    expect([release.newFiles, release.newSize]).toEqual([2, Buffer.byteLength(`<h1>v2</h1>new ${suffix}`)]);
    const url = release.deployedBranches[0].url;
    expect((await served(url, '/')).text).toBe('<h1>v2</h1>');
    expect((await served(url, '/keep.css')).text).toBe('body{}');
    expect((await served(url, '/old.txt')).status).toBe(404);
  });

  it('answers 409 and keeps nothing when the base is not what the client thinks', async () => {
    const base = await deployWhole({ 'a.txt': 'a', 'b.txt': 'b' });
    const otherDeploy = expectStatus(
      await post(
        otherSiteToken,
        `/api/v1/sites/${otherSiteId}/deploys`,
        JSON.stringify({ name: 'o', branches: ['x'], files: [entryOf('z.txt', `z ${suffix}`)] }),
        { 'content-type': 'application/json' },
      ),
      200,
    );
    const z = Buffer.from(`z ${suffix}`);
    await otherSiteToken.request('PUT', `/api/v1/deploys/${otherDeploy._id}/files/${sha256(z)}`, z, {
      'content-type': 'application/octet-stream',
    });
    const otherRelease = expectStatus(await otherSiteToken.post(`/api/v1/deploys/${otherDeploy._id}/finalize`), 200);
    const count = await deployCount();
    const rightDigest = digestOf([entryOf('a.txt', 'a'), entryOf('c.txt', 'c')]);
    const cases = [
      // A digest that does not match what the server makes of the changes (a changed file left out).
      { files: [], removed: ['b.txt'], base: { release: base._id, digest: rightDigest } },
      // A path to remove that the base does not have.
      {
        files: [entryOf('c.txt', 'c')],
        removed: ['b.txt', 'nope.txt'],
        base: { release: base._id, digest: rightDigest },
      },
      // A release of another site.
      { files: [entryOf('c.txt', 'c')], removed: ['b.txt'], base: { release: otherRelease._id, digest: rightDigest } },
    ];
    for (const changes of cases) {
      const answer = await startDeploy({ name: 'stale', branches: ['live'], ...changes });
      expect(answer.status).toBe(409);
      expect(answer.body.code).toBe('DEPLOY_BASE_CHANGED');
    }
    const empty = await startDeploy({
      name: 'empty',
      branches: ['live'],
      files: [],
      removed: ['a.txt', 'b.txt'],
      base: { release: base._id, digest: digestOf([]) },
    });
    expect(empty.status).toBe(400);
    const unbased = await startDeploy({
      name: 'removes',
      branches: ['live'],
      files: [entryOf('a.txt', 'a')],
      removed: ['b.txt'],
    });
    expect(unbased.status).toBe(400);
    expect(await deployCount()).toBe(count);
  });

  it('takes the manifest and the files compressed with zstd or gzip', async () => {
    const contents = {
      'index.html': `<p>${'zstd '.repeat(500)}${suffix}</p>`,
      'data.json': '{"a":1}',
      'big.txt': 'x'.repeat(20_000),
    };
    const files = Object.entries(contents).map(([path, content]) => entryOf(path, content));
    const manifest = Buffer.from(JSON.stringify({ name: 'compressed', branches: ['packed'], files }));
    const deploy = expectStatus(
      await post(token, `/api/v1/sites/${siteId}/deploys`, zstdCompressSync(manifest), {
        'content-type': 'application/json',
        'content-encoding': 'zstd',
      }),
      200,
    );
    expect(deploy.missing).toHaveLength(3);
    const tar = await tarBytes(
      [contents['index.html'], contents['data.json']].map((content) => ({ name: sha256(content), content })),
    );
    const batch = await post(token, `/api/v1/deploys/${deploy._id}/files`, zstdCompressSync(tar), {
      'content-type': 'application/x-tar',
      'content-encoding': 'zstd',
    });
    expect(batch.status).toBe(204);
    const single = await token.request(
      'PUT',
      `/api/v1/deploys/${deploy._id}/files/${sha256(contents['big.txt'])}`,
      gzipSync(contents['big.txt']),
      { 'content-type': 'application/octet-stream', 'content-encoding': 'gzip' },
    );
    expect(single.status).toBe(204);
    const release = await finalize(deploy._id);
    const url = release.deployedBranches[0].url;
    expect((await served(url, '/big.txt')).text).toBe(contents['big.txt']);
    expect((await served(url, '/')).text).toBe(contents['index.html']);
  });

  it('refuses bodies that do not decode, codings it does not take, and bombs past the limits', async () => {
    const content = `bomb ${suffix}`;
    const deploy = expectStatus(
      await startDeploy({ name: 'bad', branches: ['bad'], files: [entryOf('a.txt', content)] }),
      200,
    );
    const putFile = (body: Buffer, coding: string) =>
      token.request('PUT', `/api/v1/deploys/${deploy._id}/files/${sha256(content)}`, body, {
        'content-type': 'application/octet-stream',
        'content-encoding': coding,
      });
    const corrupt = await putFile(Buffer.from('not gzip at all'), 'gzip');
    expect([corrupt.status, corrupt.body.code]).toEqual([400, 'BODY_INVALID']);
    const unknown = await putFile(Buffer.from(content), 'br');
    expect([unknown.status, unknown.body.code]).toEqual([415, 'ENCODING_UNSUPPORTED']);
    expect(unknown.headers.get('accept-encoding')).toBe('zstd, gzip');
    // 10 MB of zeros for a file announced at a few bytes: refused as soon as it passes them.
    const bomb = await putFile(gzipSync(Buffer.alloc(10_000_000)), 'gzip');
    expect([bomb.status, bomb.body.code]).toEqual([400, 'DEPLOY_HASH_MISMATCH']);
    // A manifest that expands past the route's 32 MiB.
    const manifestBomb = await post(
      token,
      `/api/v1/sites/${siteId}/deploys`,
      gzipSync(Buffer.alloc(40 * 1024 * 1024, 32)),
      {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
      },
    );
    expect([manifestBomb.status, manifestBomb.body.code]).toEqual([413, 'BODY_TOO_LARGE']);
    // The archive upload reads its multipart body itself: no coding on it.
    const archive = await tarGz([{ name: 'index.html', content: 'x' }]);
    const form = uploadForm(archive, 'coded');
    const multipart = await token.request('POST', `/api/v1/sites/${siteId}/releases`, form, {
      'content-encoding': 'gzip',
    });
    expect([multipart.status, multipart.body.code]).toEqual([415, 'ENCODING_UNSUPPORTED']);
    // Nothing of it was kept: the file is still missing.
    const done = await token.post(`/api/v1/deploys/${deploy._id}/finalize`);
    expect([done.status, done.body.code]).toEqual([409, 'DEPLOY_INCOMPLETE']);
  });
});
