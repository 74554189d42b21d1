import { randomBytes } from 'node:crypto';
import { rm, truncate } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256, tarGz, uploadForm } from '../../test/archives.ts';
import { expectStatus, signedIn } from '../../test/client.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';

/** A site request that tells a complete answer from one whose connection was cut (before its headers, maybe). */
function fetchFile(port: number, host: string, pathname: string) {
  return new Promise<{ status: number; bytes: number; complete: boolean }>((resolve) => {
    const request = http.get({ host: '127.0.0.1', port, path: pathname, headers: { host }, agent: false }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      res.on('error', () => undefined);
      res.on('close', () => resolve({ status: res.statusCode ?? 0, bytes, complete: res.complete }));
    });
    request.on('error', () => resolve({ status: 0, bytes: 0, complete: false }));
  });
}

describe('release files the disk lost', () => {
  const small = 'x'.repeat(10_000);
  const large = randomBytes(3 * 1024 * 1024);
  let server: TestServer;
  let host: string;
  let port: number;

  beforeAll(async () => {
    server = await startTestServer({ captureLog: true });
    const owner = await signedIn(server.url, 'owner');
    const org = expectStatus(await owner.post('/api/v1/orgs', { name: 'Acme' }), 200);
    const team = expectStatus(await owner.post(`/api/v1/orgs/${org._id}/teams`, { name: 'Web' }), 200);
    const site = expectStatus(await owner.post(`/api/v1/teams/${team._id}/sites`, { name: 'lossy' }), 200);
    const archive = await tarGz([
      { name: 'small.txt', content: small },
      { name: 'large.bin', content: large },
      { name: 'gone.txt', content: 'removed by hand' },
      { name: 'intact.txt', content: 'still whole' },
    ]);
    const release = expectStatus(
      await owner.request('POST', `/api/v1/sites/${site._id}/releases`, uploadForm(archive, 'r')),
      200,
    );
    host = new URL(release.deployedBranches[0].url).host;
    port = Number(new URL(server.url).port);
  });
  afterAll(() => server.close());

  const blobFile = (content: string | Buffer) => {
    const hash = sha256(content);
    return path.join(server.dataDir, 'blobs', 'files', hash.slice(0, 2), hash);
  };
  const logged = (message: string) =>
    server.logLines.map((line) => JSON.parse(line)).filter((line) => line.msg === message);

  it('answers 500 for a short file answered from memory, read before its head, and logs it', async () => {
    await truncate(blobFile(small), 100);
    const answer = await fetchFile(port, host, '/small.txt');
    expect(answer.status).toBe(500);
    const problems = logged('a release file has the wrong size');
    expect(problems.some((line) => line.blob.endsWith(sha256(small)))).toBe(true);
  });

  it('cuts the connection on a short file streamed from disk and logs it, never ending the answer early as if complete', async () => {
    await truncate(blobFile(large), 1024 * 1024);
    const answer = await fetchFile(port, host, '/large.bin');
    expect(answer.complete).toBe(false);
    const problems = logged('a release file is shorter than its release says');
    expect(problems.some((line) => line.blob.endsWith(sha256(large)))).toBe(true);
  });

  it('answers 500 for a missing file and logs it as missing', async () => {
    await rm(blobFile('removed by hand'));
    const answer = await fetchFile(port, host, '/gone.txt');
    expect(answer.status).toBe(500);
    const problems = logged('a release file is missing from the store');
    expect(problems.some((line) => line.blob.endsWith(sha256('removed by hand')))).toBe(true);
  });

  it('serves the files that are whole', async () => {
    expect(await fetchFile(port, host, '/intact.txt')).toEqual({ status: 200, bytes: 11, complete: true });
  });
});
