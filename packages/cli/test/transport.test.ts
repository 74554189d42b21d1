import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { freePort, siteRequest } from '@wharf/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitCodes } from '../src/failures.ts';
import { runInProcess } from './inProcess.ts';
import { siteFolder } from './siteFolder.ts';
import { startTlsRelay } from './tlsRelay.ts';
import { startUploadWorld, type UploadWorld } from './uploadWorld.ts';
import { runWharf } from './wharfProcess.ts';

/** How wharf talks to a server: what it loads for it, HTTPS, redirects, a server it cannot reach. */
let world: UploadWorld;

beforeAll(async () => {
  world = await startUploadWorld();
});
afterAll(async () => {
  await world.server.close();
});

const connection = () => ['--url', world.server.url, '--site', world.siteId, '--token', world.siteToken];

/** What a branch URL serves, asked by host name as a browser would. */
async function served(url: string, pathname = '/') {
  const port = Number(new URL(world.server.url).port);
  return (await siteRequest(port, new URL(url).host, pathname)).text;
}

describe("wharf's connection to the server", () => {
  it("loads neither a schema library nor Node's fetch to upload, while the commands that read other answers load the library", async () => {
    // `wharf releases` is the control for the library: the probe sees it when it is loaded; a
    // bare node that fetches is the control for fetch.
    const probe = path.join(import.meta.dirname, 'loadProbe.cjs');
    const env = { NODE_OPTIONS: `--require ${probe}` };
    const folder = await siteFolder({ 'index.html': '<h1>Light</h1>' });
    const upload = await runWharf(['upload', folder, ...connection(), '--release', 'light'], { env });
    const releases = await runWharf(['releases', 'list', ...connection()], { env });
    expect(upload.code, upload.stderr).toBe(0);
    expect(releases.code, releases.stderr).toBe(0);
    expect(upload.stderr).toContain('schema library loaded: no');
    expect(upload.stderr).toContain('fetch loaded: no');
    expect(releases.stderr).toContain('schema library loaded: yes');
    // A fetch that fails at once: synchronous, this process's own server could not answer it.
    const fetching = spawnSync(process.execPath, [
      '--require',
      probe,
      '-e',
      "fetch('http://127.0.0.1:1').catch(() => {})",
    ]);
    expect(fetching.stderr.toString()).toContain('fetch loaded: yes');
  });

  it('uploads over HTTPS to a server whose certificate NODE_EXTRA_CA_CERTS trusts, and not to one it does not trust', async () => {
    const relay = await startTlsRelay(Number(new URL(world.server.url).port));
    try {
      const folder = await siteFolder({ 'index.html': `<h1>Behind TLS ${Date.now()}</h1>` });
      const args = ['upload', folder, '--url', relay.url, '--site', world.siteId, '--token', world.siteToken];
      const trusted = await runWharf([...args, '--release', 'tls', '--json'], {
        env: { NODE_EXTRA_CA_CERTS: relay.certificateFile },
      });
      expect(trusted.code, trusted.stderr).toBe(0);
      expect(await served(trusted.json().branches[0].url)).toMatch(/^<h1>Behind TLS/);
      const untrusted = await runInProcess([...args, '--release', 'untrusted']);
      expect(untrusted.code).toBe(exitCodes.unreachable);
      expect(untrusted.stderr).toContain(`Cannot reach ${relay.url}`);
      expect(untrusted.stderr).toContain('self-signed certificate');
    } finally {
      await relay.close();
    }
  });

  it('stops at a redirect, without following it with the token, and names the address to give', async () => {
    // A proxy that sends plain HTTP on to HTTPS, as many do in front of a server.
    const redirecting = createServer((request, response) => {
      response.writeHead(301, { location: `https://wharf.example${request.url}` }).end();
    });
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}`;
    try {
      const folder = await siteFolder({ 'index.html': 'x' });
      const run = await runInProcess(['upload', folder, '--url', url, '--site', 's', '--token', 't']);
      expect(run.code).toBe(exitCodes.unreachable);
      expect(run.stderr).toContain(
        `${url} answers with a redirect to https://wharf.example/api/v1/sites/s/deploys/base`,
      );
      expect(run.stderr).toContain('give --url https://wharf.example if that is where Wharf is');
    } finally {
      redirecting.close();
    }
  });

  it('gives up on a server it cannot reach, after retries', async () => {
    const folder = await siteFolder({ 'index.html': 'x' });
    const closed = `http://127.0.0.1:${await freePort()}`;
    const run = await runInProcess(['upload', folder, '--url', closed, '--site', 's', '--token', 't']);
    expect(run.code).toBe(exitCodes.unreachable);
    expect(run.stderr).toContain(`wharf: Cannot reach ${closed} (tried 3 times): connect ECONNREFUSED`);
    expect(run.stderr.match(/trying again/g)).toHaveLength(2);
  });
});
