import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sha256, tarGz, uploadForm } from '../../../../test/archives.ts';
import { expectStatus, signedIn, type TestClient } from '../../../../test/client.ts';
import { databases, startTestServer, type TestServer } from '../../../../test/harness.ts';
import { collectGarbage, sweepExpiredDeploys } from '../collect/gc.ts';

const site = [
  { name: 'index.html', content: '<h1>Hello</h1>'.repeat(40) },
  { name: 'assets/', type: 'directory' as const },
  { name: 'assets/app.js', content: 'console.log(1);' },
];

describe.each(databases)('deploys on $name', ({ postgres }) => {
  let server: TestServer;
  let owner: TestClient;
  let siteId: string;
  let token: TestClient;

  beforeAll(async () => {
    server = await startTestServer({ postgres });
    owner = await signedIn(server.url, 'owner');
    const org = expectStatus(await owner.post('/api/v1/orgs', { name: 'Acme' }), 200);
    const team = expectStatus(await owner.post(`/api/v1/orgs/${org._id}/teams`, { name: 'Web' }), 200);
    siteId = expectStatus(
      await owner.post(`/api/v1/teams/${team._id}/sites`, { name: `deploys-${postgres ? 'pg' : 'lite'}` }),
      200,
    )._id;
    const siteToken = expectStatus(await owner.post(`/api/v1/sites/${siteId}/tokens`, { name: 'ci' }), 200);
    token = owner.withToken(siteToken.value);
  });
  afterAll(() => server.close());

  const upload = async (client: TestClient, form: FormData) =>
    client.request('POST', `/api/v1/sites/${siteId}/releases`, form);
  const deployIds = () => server.app.db.selectFrom('deploys').select('id').where('site_id', '=', siteId).execute();

  it('turns a tar.gz into a release and moves the named branches, creating new ones', async () => {
    const answer = await upload(token, uploadForm(await tarGz(site), 'first', ['main', 'feature/login']));
    const release = expectStatus(answer, 200);
    expect(release).toMatchObject({ name: 'first', fileCount: 2 });
    expect(
      release.deployedBranches.map((b: { name: string; url: string }) => [b.name, new URL(b.url).hostname]),
    ).toEqual([
      // The main branch at the site's own address, the one it answers at.
      ['main', expect.stringMatching(/^deploys-/)],
      ['feature/login', expect.stringMatching(/^feature-login\.deploys-/)],
    ]);
    const events = await server.app.db.selectFrom('events').select('name').where('site_id', '=', siteId).execute();
    const names = events.map((e) => e.name);
    expect(names.filter((n) => n === 'site_release_created')).toHaveLength(1);
    expect(names.filter((n) => n === 'site_branch_added')).toHaveLength(1);
    expect(names.filter((n) => n === 'site_branch_release_set')).toHaveLength(2);
  });

  it('reads forms from .wharf.yml, and reports a bad one with its line without failing the upload', async () => {
    const good = [...site, { name: '.wharf.yml', content: 'forms:\n  - name: contact\n    type: db\n' }];
    expect(expectStatus(await upload(token, uploadForm(await tarGz(good), 'with forms')), 200).forms).toEqual([
      { name: 'contact', type: 'db' },
    ]);
    const bad = [...site, { name: '.wharf.yml', content: 'forms:\n  - name: contact\n    type: email\n' }];
    const answer = expectStatus(await upload(token, uploadForm(await tarGz(bad), 'bad forms')), 200);
    expect(answer.ruleProblems).toEqual([
      { file: '.wharf.yml', line: 2, severity: 'error', message: 'forms.0.recipient: Input is required' },
    ]);
    // The bad declaration is left out: the site's form stays as it was.
    expect(answer.forms).toEqual([{ name: 'contact', type: 'db' }]);
  });

  it.each([
    [[{ name: '/etc/passwd', content: 'x' }], 'Archive entry "/etc/passwd" has an absolute path'],
    [[{ name: '../escape.html', content: 'x' }], 'Archive entry "../escape.html" leaves the release folder'],
    [
      [{ name: 'link', type: 'symlink' as const, linkname: '/etc/passwd' }],
      'Archive entry "link" is a symlink; only files and folders are allowed',
    ],
    [
      [{ name: 'dev', type: 'character-device' as const }],
      'Archive entry "dev" is a character-device; only files and folders are allowed',
    ],
    [[{ name: 'empty/', type: 'directory' as const }], 'The archive holds no files'],
    [
      [
        { name: 'a.txt', content: 'one' },
        { name: './a.txt', content: 'two' },
      ],
      'Archive entry "./a.txt" appears twice',
    ],
    [
      [
        { name: 'a', content: 'a file' },
        { name: 'a/b.html', content: 'in a folder of the same name' },
      ],
      'Archive entry "a/b.html": "a" is both a file and a folder',
    ],
    [
      [
        { name: 'docs/guide/index.html', content: 'in a folder' },
        { name: 'docs/guide', content: 'a file of the same name' },
      ],
      'Archive entry "docs/guide": "docs/guide" is both a file and a folder',
    ],
    [
      [
        { name: 'a/', type: 'directory' as const },
        { name: 'a', content: 'a file where the folder was' },
      ],
      'Archive entry "a": "a" is both a file and a folder',
    ],
  ])('refuses a dangerous archive with 400 naming the entry (%#)', async (entries, message) => {
    const before = await server.app.db.selectFrom('releases').select('id').execute();
    const answer = await upload(token, uploadForm(await tarGz(entries), 'bad'));
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(message);
    expect(await server.app.db.selectFrom('releases').select('id').execute()).toEqual(before);
    const unfinished = server.app.db.selectFrom('deploys').select('id').where('release_id', 'is', null);
    expect(await unfinished.execute()).toEqual([]);
  });

  it.each([
    ['without a boundary', 'multipart/form-data', 'boundary not found'],
    ['that ends inside the archive', 'multipart/form-data; boundary=wharf', 'unexpected end of multipart data'],
  ])('refuses a multipart body %s with 400, keeping nothing', async (_, contentType, problem) => {
    const archive = await tarGz(site);
    const body = Buffer.concat([
      Buffer.from('--wharf\r\ncontent-disposition: form-data; name="name"\r\n\r\ncut\r\n'),
      Buffer.from('--wharf\r\ncontent-disposition: form-data; name="file"; filename="site.tar.gz"\r\n\r\n'),
      archive,
    ]);
    const answer = await token.request('POST', `/api/v1/sites/${siteId}/releases`, body, {
      'content-type': contentType,
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 'MULTIPART_INVALID', message: expect.stringContaining(problem) });
    const unfinished = server.app.db.selectFrom('deploys').select('id').where('release_id', 'is', null);
    expect(await unfinished.execute()).toEqual([]);
  });

  it('refuses a manifest where a name is a file and a folder, naming the entry', async () => {
    const files = [
      { path: 'a/index.html', hash: sha256('x'), size: 1 },
      { path: 'a', hash: sha256('y'), size: 1 },
    ];
    const answer = await token.post(`/api/v1/sites/${siteId}/deploys`, { name: 'clash', branches: [], files });
    expect(answer.status).toBe(400);
    expect(answer.body.details).toEqual([{ field: 'files.1.path', message: '"a" is both a file and a folder' }]);
  });

  it('refuses what is not a tar.gz', async () => {
    const answer = await upload(token, uploadForm(Buffer.from('not an archive'), 'junk'));
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe('The file is not a valid tar.gz archive');
  });

  it('lets a site token upload only to its own site, and nothing else', async () => {
    const org = expectStatus(await owner.get('/api/v1/orgs'), 200)[0];
    const team = expectStatus(await owner.get(`/api/v1/orgs/${org._id}/teams`), 200).items[0];
    const other = expectStatus(
      await owner.post(`/api/v1/teams/${team._id}/sites`, { name: `other-${postgres ? 'pg' : 'lite'}` }),
      200,
    );
    const answer = await token.request(
      'POST',
      `/api/v1/sites/${other._id}/releases`,
      uploadForm(await tarGz(site), 'x'),
    );
    expect(answer.status).toBe(403);
    expect((await token.get(`/api/v1/sites/${siteId}`)).status).toBe(403);
  });

  it('deploys incrementally: only missing files travel, and bad bytes are refused', async () => {
    const files = { 'index.html': '<p>v1</p>', 'about.html': '<p>about</p>' };
    const manifest = Object.entries(files).map(([path, content]) => ({
      path,
      hash: sha256(content),
      size: content.length,
    }));
    const first = expectStatus(
      await token.post(`/api/v1/sites/${siteId}/deploys`, { name: 'inc 1', branches: ['main'], files: manifest }),
      200,
    );
    expect(first.missing.sort()).toEqual(manifest.map((f) => f.hash).sort());
    const put = (deployId: string, hash: string, body: string) =>
      token.request('PUT', `/api/v1/deploys/${deployId}/files/${hash}`, body, {
        'content-type': 'application/octet-stream',
      });
    expect((await put(first._id, manifest[0]!.hash, 'tampered!')).status).toBe(400);
    expect((await token.post(`/api/v1/deploys/${first._id}/finalize`)).status).toBe(409);
    for (const content of Object.values(files))
      expect((await put(first._id, sha256(content), content)).status).toBe(204);
    const finalised = expectStatus(await token.post(`/api/v1/deploys/${first._id}/finalize`), 200);
    expect(finalised).toMatchObject({ name: 'inc 1', fileCount: 2 });
    // A retry after a lost answer gets the same release; nothing new is created.
    const retried = expectStatus(await token.post(`/api/v1/deploys/${first._id}/finalize`), 200);
    expect(retried._id).toBe(finalised._id);
    expect(retried.deployedBranches.map((branch: { name: string }) => branch.name)).toEqual(['main']);
    expect((await put(first._id, manifest[0]!.hash, files['index.html'])).status).toBe(409);

    const changed = manifest.map((f) => (f.path === 'index.html' ? { ...f, hash: sha256('<p>v2</p>'), size: 9 } : f));
    const second = expectStatus(
      await token.post(`/api/v1/sites/${siteId}/deploys`, { name: 'inc 2', branches: ['main'], files: changed }),
      200,
    );
    expect(second.missing).toEqual([sha256('<p>v2</p>')]);

    // No branch named: like the archive upload, the release goes to the main branch.
    const unnamed = expectStatus(
      await token.post(`/api/v1/sites/${siteId}/deploys`, { name: 'inc 3', branches: [], files: manifest }),
      200,
    );
    const third = expectStatus(await token.post(`/api/v1/deploys/${unnamed._id}/finalize`), 200);
    expect(third.deployedBranches.map((branch: { name: string }) => branch.name)).toEqual(['main']);
  });

  it('leaves no release and no files behind an interrupted upload', async () => {
    const before = await server.app.db.selectFrom('releases').select('id').execute();
    const deploysBefore = new Set((await deployIds()).map((row) => row.id));
    const big = await tarGz([{ name: 'big.bin', content: randomBytes(4 * 1024 * 1024) }]);
    const form = new Response(uploadForm(big, 'interrupted'));
    const bytes = Buffer.from(await form.arrayBuffer());
    const half = bytes.subarray(0, bytes.length / 2);
    const controller = new AbortController();
    // Half the body, then the client dies: the server must not make a release of it.
    const body = new ReadableStream({
      start(stream) {
        stream.enqueue(half);
      },
    });
    const tokenValue = (await owner.get(`/api/v1/sites/${siteId}/tokens`)).body[0].value;
    const sent = fetch(`${server.url}/api/v1/sites/${siteId}/releases`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokenValue}`, 'content-type': form.headers.get('content-type')! },
      body,
      signal: controller.signal,
      duplex: 'half',
    } as RequestInit).catch(() => undefined);
    // The client dies once the server has opened a deploy for the upload and is reading it, and the
    // sweep comes once the server is done with it: no timer stands in for either on a busy machine.
    const opened = await vi.waitFor(
      async () => {
        const made = (await deployIds()).find((row) => !deploysBefore.has(row.id));
        expect(made).toBeDefined();
        return made!.id;
      },
      { timeout: 20_000, interval: 20 },
    );
    controller.abort();
    await sent;
    await vi.waitFor(async () => expect((await deployIds()).map((row) => row.id)).not.toContain(opened), {
      timeout: 20_000,
      interval: 50,
    });
    const later = new Date(Date.now() + 24 * 3600_000);
    await sweepExpiredDeploys(server.app, later);
    await collectGarbage(server.app, later);
    expect(await server.app.db.selectFrom('releases').select('id').execute()).toEqual(before);
    const orphans = await server.app.db
      .selectFrom('blobs')
      .select('hash')
      .where('hash', 'not in', server.app.db.selectFrom('release_files').select('hash'))
      .execute();
    expect(orphans).toEqual([]);
  });

  it('deletes a release no branch serves and collects its unique files', async () => {
    const unique = 'only in this release';
    const release = expectStatus(
      await upload(token, uploadForm(await tarGz([{ name: 'u.txt', content: unique }]), 'doomed', ['doomed'])),
      200,
    );
    const branch = release.deployedBranches[0];
    const keep = (await owner.get(`/api/v1/sites/${siteId}/releases?size=100`)).body.items.find(
      (r: { name: string }) => r.name === 'first',
    );
    const busy = await owner.delete(`/api/v1/releases/${release._id}`);
    expect(busy.status).toBe(409);
    expect(busy.body.message).toBe('The release is served by doomed; point it at another release first');
    expectStatus(await owner.put(`/api/v1/sites/${siteId}/branches/${branch._id}/release`, { release: keep._id }), 200);
    expect((await owner.delete(`/api/v1/releases/${release._id}`)).status).toBe(204);
    await collectGarbage(server.app, new Date(Date.now() + 3600_000));
    const blob = await server.app.db
      .selectFrom('blobs')
      .select('hash')
      .where('hash', '=', sha256(unique))
      .executeTakeFirst();
    expect(blob).toBeUndefined();
  });
});
