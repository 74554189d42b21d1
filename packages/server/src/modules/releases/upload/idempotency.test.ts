import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256, tarGz, uploadForm } from '../../../../test/archives.ts';
import { expectStatus, signedIn, type TestClient } from '../../../../test/client.ts';
import { databases, startTestServer, type TestServer } from '../../../../test/harness.ts';

describe.each(databases)('Idempotency-Key on uploads on $name', ({ postgres }) => {
  let server: TestServer;
  let owner: TestClient;
  let token: TestClient;
  let tokenValue: string;
  let siteId: string;
  let counter = 0;
  const key = () => `key-${Date.now()}-${counter++}`;

  beforeAll(async () => {
    server = await startTestServer({ postgres });
    owner = await signedIn(server.url, 'owner');
    const org = expectStatus(await owner.post('/api/v1/orgs', { name: 'Acme' }), 200);
    const team = expectStatus(await owner.post(`/api/v1/orgs/${org._id}/teams`, { name: 'Web' }), 200);
    siteId = expectStatus(await owner.post(`/api/v1/teams/${team._id}/sites`, { name: `keys-${postgres}` }), 200)._id;
    tokenValue = expectStatus(await owner.post(`/api/v1/sites/${siteId}/tokens`, { name: 'ci' }), 200).value;
    token = owner.withToken(tokenValue);
  });
  afterAll(() => server.close());

  // Built once: tar records the time of packing, and a retry must send the same bytes.
  let v1: Buffer;
  let v2: Buffer;
  beforeAll(async () => {
    v1 = await tarGz([{ name: 'index.html', content: 'v1' }]);
    v2 = await tarGz([{ name: 'index.html', content: 'v2' }]);
  });
  /** An upload form that makes a release even of the files main serves already: each key's request makes its own. */
  const releaseForm = (archive: Buffer, name: string) => {
    const form = uploadForm(archive, name);
    form.append('force', 'true');
    return form;
  };
  const upload = (client: TestClient, idempotencyKey: string, name: string, archive = v1) =>
    client.request('POST', `/api/v1/sites/${siteId}/releases`, releaseForm(archive, name), {
      'idempotency-key': idempotencyKey,
    });
  const releasesNamed = (name: string) =>
    server.app.db.selectFrom('releases').select('id').where('name', '=', name).execute();

  it('answers a retried upload with the first answer, and makes one release', async () => {
    const sameKey = key();
    const first = expectStatus(await upload(token, sameKey, 'retried'), 200);
    const again = await upload(token, sameKey, 'retried');
    expect(expectStatus(again, 200)).toEqual(first);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await releasesNamed('retried')).toEqual([{ id: first._id }]);
  });

  it('refuses the key with another request (422), on this route or another', async () => {
    const sameKey = key();
    expectStatus(await upload(token, sameKey, 'first use'), 200);
    const otherName = await upload(token, sameKey, 'another name');
    expect(otherName.status).toBe(422);
    expect(otherName.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect((await upload(token, sameKey, 'first use', v2)).body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    const files = [{ path: 'index.html', hash: sha256('v1'), size: 2 }];
    const deploy = await token.request(
      'POST',
      `/api/v1/sites/${siteId}/deploys`,
      JSON.stringify({ name: 'first use', branches: [], files }),
      { 'content-type': 'application/json', 'idempotency-key': sameKey },
    );
    expect(deploy.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await releasesNamed('another name')).toEqual([]);
  });

  it('refuses a retry while the first request is still running (409), then answers it', async () => {
    const sameKey = key();
    const form = new Response(releaseForm(v1, 'slow'));
    const contentType = form.headers.get('content-type')!;
    const bytes = Buffer.from(await form.arrayBuffer());
    let finish!: () => void;
    // The first upload sends half its body, then waits.
    const body = new ReadableStream({
      start(stream) {
        stream.enqueue(bytes.subarray(0, 100));
        finish = () => {
          stream.enqueue(bytes.subarray(100));
          stream.close();
        };
      },
    });
    const first = fetch(`${server.url}/api/v1/sites/${siteId}/releases`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokenValue}`, 'content-type': contentType, 'idempotency-key': sameKey },
      body,
      duplex: 'half',
    } as RequestInit);
    const claimed = server.app.db.selectFrom('idempotency_keys').select('key').where('key', '=', sameKey);
    while (!(await claimed.executeTakeFirst())) await sleep(10);
    const meanwhile = await upload(token, sameKey, 'slow');
    expect(meanwhile.status).toBe(409);
    expect(meanwhile.body.code).toBe('IDEMPOTENCY_KEY_IN_USE');
    finish();
    const answered = (await (await first).json()) as { _id: string };
    expect(expectStatus(await upload(token, sameKey, 'slow'), 200)._id).toBe(answered._id);
    expect(await releasesNamed('slow')).toHaveLength(1);
  });

  it('lets a request that failed run again with its key', async () => {
    const sameKey = key();
    const broken = await token.request(
      'POST',
      `/api/v1/sites/${siteId}/releases`,
      uploadForm(Buffer.from('not a tar.gz'), 'mended'),
      { 'idempotency-key': sameKey },
    );
    expect(broken.status).toBe(400);
    expectStatus(await upload(token, sameKey, 'mended'), 200);
    expect(await releasesNamed('mended')).toHaveLength(1);
  });

  it("keeps each caller's keys apart", async () => {
    const sameKey = key();
    expectStatus(await upload(token, sameKey, 'two callers'), 200);
    expectStatus(await upload(owner, sameKey, 'two callers'), 200);
    expect(await releasesNamed('two callers')).toHaveLength(2);
  });

  it('answers a retried deploy start with the same deploy', async () => {
    const sameKey = key();
    const manifest = { name: 'started twice', branches: [], files: [{ path: 'a.txt', hash: sha256('a'), size: 1 }] };
    const start = () =>
      token.request('POST', `/api/v1/sites/${siteId}/deploys`, JSON.stringify(manifest), {
        'content-type': 'application/json',
        'idempotency-key': sameKey,
      });
    const first = expectStatus(await start(), 200);
    expect(expectStatus(await start(), 200)).toEqual(first);
    const deploys = await server.app.db
      .selectFrom('deploys')
      .select('id')
      .where('name', '=', 'started twice')
      .execute();
    expect(deploys).toEqual([{ id: first._id }]);
  });

  it('refuses a key that is not 1 to 255 visible characters', async () => {
    for (const bad of ['', 'has space', 'x'.repeat(256)]) {
      const answer = await upload(token, bad, 'bad key');
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe('IDEMPOTENCY_KEY_INVALID');
    }
  });

  it('documents the header in the API description of the routes that take it', async () => {
    const document: any = await (await fetch(`${server.url}/api/v1/openapi.json`)).json();
    const headerOf = (operation: any) =>
      operation.parameters.find((parameter: { in: string }) => parameter.in === 'header')?.name;
    expect(headerOf(document.paths['/api/v1/sites/{siteId}/releases'].post)).toBe('Idempotency-Key');
    expect(headerOf(document.paths['/api/v1/sites/{siteId}/deploys'].post)).toBe('Idempotency-Key');
  });

  it('makes one release of a deploy finalised twice at the same time', async () => {
    const files = [{ path: 'twice.txt', hash: sha256('twice'), size: 5 }];
    const deploy = expectStatus(
      await token.post(`/api/v1/sites/${siteId}/deploys`, { name: 'finalised twice', branches: [], files }),
      200,
    );
    await token.request('PUT', `/api/v1/deploys/${deploy._id}/files/${files[0]!.hash}`, 'twice', {
      'content-type': 'application/octet-stream',
    });
    const answers = await Promise.all([1, 2, 3].map(() => token.post(`/api/v1/deploys/${deploy._id}/finalize`)));
    const ids = answers.map((answer) => expectStatus(answer, 200)._id);
    expect(new Set(ids).size).toBe(1);
    expect(await releasesNamed('finalised twice')).toEqual([{ id: ids[0] }]);
  });
});
