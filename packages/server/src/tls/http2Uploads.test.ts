import { mkdtemp, rm } from 'node:fs/promises';
import type http2 from 'node:http2';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../test/archives.ts';
import { operatorTlsEnv, testAuthority } from '../../test/certificates.ts';
import { expectStatus } from '../../test/client.ts';
import { freePort, startTestServer, type TestServer } from '../../test/harness.ts';
import { http2Session } from '../../test/httpsClient.ts';
import { buildWorld } from '../../test/world.ts';

describe('an upload over HTTP/2 whose body stops arriving', () => {
  const authority = testAuthority();
  let dataDir: string;
  let server: TestServer;
  let session: http2.ClientHttp2Session;
  let httpsPort: number;
  let upload: { deployId: string; hash: string; token: string };

  beforeAll(async () => {
    // The world and an open deploy are made over plain HTTP first: with HTTPS on, plain HTTP only redirects.
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'wharf-http2-uploads-'));
    const plain = await startTestServer({ dataDir });
    const world = await buildWorld(plain.url);
    const owner = world.clients.owner;
    const token = expectStatus(await owner.post(`/api/v1/sites/${world.site._id}/tokens`, { name: 'ci' }), 200).value;
    const hash = sha256('never sent whole');
    const files = [{ path: 'stalled.bin', hash, size: 100 }];
    const deploy = expectStatus(
      await owner.withToken(token).post(`/api/v1/sites/${world.site._id}/deploys`, { name: 'h2', branches: [], files }),
      200,
    );
    upload = { deployId: deploy._id, hash, token };
    await plain.close();

    const { cert, key } = authority.issue(['localhost']);
    httpsPort = await freePort();
    server = await startTestServer({
      dataDir,
      env: { ...operatorTlsEnv(dataDir, { chain: cert, key }, httpsPort), WHARF_UPLOAD_IDLE_SECONDS: '1' },
    });
    session = await http2Session(httpsPort, 'localhost', authority.ca);
  });
  afterAll(async () => {
    session?.close();
    await server?.close();
    await rm(dataDir, { recursive: true, force: true });
    authority.remove();
  });

  it('answers 408 UPLOAD_TIMEOUT on its stream, as over HTTP/1.1', async () => {
    const startedAt = Date.now();
    const stream = session.request({
      ':method': 'PUT',
      ':path': `/api/v1/deploys/${upload.deployId}/files/${upload.hash}`,
      ':authority': `localhost:${httpsPort}`,
      authorization: `Bearer ${upload.token}`,
      'content-type': 'application/octet-stream',
      'content-length': '100',
    });
    stream.write('sixbyt');
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      let status = 0;
      let body = '';
      stream.on('response', (headers) => {
        status = Number(headers[':status']);
      });
      stream.on('data', (chunk: Buffer) => {
        body += chunk;
      });
      stream.on('end', () => resolve({ status, body }));
      stream.on('error', reject);
      stream.setTimeout(10_000, () => stream.destroy(new Error('no answer within 10 s')));
    });
    expect({ status: answer.status, code: JSON.parse(answer.body).code }).toEqual({
      status: 408,
      code: 'UPLOAD_TIMEOUT',
    });
    expect(Date.now() - startedAt).toBeLessThan(4_000);
  });
});
