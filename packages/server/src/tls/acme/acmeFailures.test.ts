import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus } from '../../../test/client.ts';
import { type DnsPeer, startDnsPeer } from '../../../test/dnsPeer.ts';
import { freePort, startTestServer, type TestServer } from '../../../test/harness.ts';
import { eventually, handshakes } from '../../../test/httpsClient.ts';
import { acmeEnv, type Pebble, startPebble } from '../../../test/pebble.ts';
import { buildWorld } from '../../../test/world.ts';

const SITES = 'sites.wharf.test';
/** What Node says of pebble's certificate, signed by a CA it was not told of. */
const UNTRUSTED = /UNABLE_TO_VERIFY_LEAF_SIGNATURE: unable to verify the first certificate/;

/** Whether a TLS handshake for a name completes, and how long it took to know. */
async function handshake(port: number, servername: string, ca: string) {
  const started = Date.now();
  const done = await handshakes(port, servername, ca);
  return { done, ms: Date.now() - started };
}

describe('ACME that fails: fast, with its cause, shown to the site, retried at once after a fix', () => {
  let dataDir: string;
  let dns: DnsPeer;
  let pebble: Pebble;
  let server: TestServer | undefined;
  let httpPort: number;
  let httpsPort: number;
  let root: string;
  let siteId: string;
  let siteHost: string;
  let token: string;

  /** Wharf on the same data, with pebble's own root trusted or not. */
  const startWharf = async (trustPebble: boolean) => {
    const { WHARF_EXTRA_CA_CERTS, ...env } = acmeEnv(pebble, httpsPort);
    server = await startTestServer({
      dataDir,
      port: httpPort,
      captureLog: true,
      env: { ...env, WHARF_DNS_SERVER: dns.server, ...(trustPebble ? { WHARF_EXTRA_CA_CERTS } : {}) },
    });
    return server;
  };

  /** The API as the site's owner, over the app itself (its plain HTTP only redirects to HTTPS now). */
  const api = async (method: 'GET' | 'POST', url: string) => {
    const answer = await server!.app.fastify.inject({ method, url, headers: { authorization: `Bearer ${token}` } });
    return { status: answer.statusCode, body: answer.json() };
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'wharf-acme-failures-'));
    dns = await startDnsPeer();
    const plain = await startTestServer({ dataDir, env: { WHARF_DNS_SERVER: dns.server } });
    const world = await buildWorld(plain.url);
    siteId = world.site._id;
    siteHost = `${world.site.name}.${SITES}`;
    const created = await world.clients.owner.post('/api/v1/api-tokens', {
      name: 'certificates',
      scopes: ['site_read', 'site_update'],
      expiresAt: null,
    });
    token = expectStatus(created, 200).value;
    await plain.close();
    httpPort = await freePort();
    httpsPort = await freePort();
    pebble = await startPebble({ httpPort, dnsServer: dns.server });
    root = await pebble.issuedRoot();
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await pebble?.stop();
    await dns?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("fails a host's first handshake at once when the CA's own certificate is not trusted, and logs why", async () => {
    const wharf = await startWharf(false);
    const first = await handshake(httpsPort, siteHost, root);
    expect(first.done).toBe(false);
    // Not the 75 s of five silent retries: the order fails as soon as the CA's TLS does.
    expect(first.ms).toBeLessThan(15_000);
    const failure = wharf.logLines.find((line) => line.includes('could not obtain a certificate over ACME'));
    expect(failure).toMatch(UNTRUSTED);
    expect(failure).toContain(pebble.directoryUrl);
    // The site's people see the certificate failed, and why.
    const listed = await api('GET', `/api/v1/sites/${siteId}/certificates`);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([
      expect.objectContaining({
        name: siteHost,
        shared: false,
        state: 'failed',
        lastError: expect.stringMatching(UNTRUSTED),
      }),
    ]);
    // Asked again while it backs off: refused at once, and the log says why (once in 10 s a host).
    const explained = () => wharf.logLines.find((line) => line.includes('no certificate: the last order failed'));
    await eventually(
      () => handshake(httpsPort, siteHost, root),
      (again) => !again.done && again.ms < 5_000 && explained() !== undefined,
      20_000,
    );
    expect(explained()).toMatch(UNTRUSTED);
  }, 120_000);

  it('obtains it at once once the CA is trusted: a restart does not wait out the back-off', async () => {
    await server?.close();
    await startWharf(true);
    await eventually(
      () => handshake(httpsPort, siteHost, root),
      (attempt) => attempt.done,
      20_000,
    );
    const listed = await api('GET', `/api/v1/sites/${siteId}/certificates`);
    expect(listed.body).toEqual([expect.objectContaining({ name: siteHost, state: 'valid', lastError: null })]);
  }, 60_000);

  it('orders again at once on Retry now, after what made it fail was fixed', async () => {
    const name = `main.${siteHost}`;
    // The name points where nothing answers pebble's check: the order fails.
    await dns.addA(name, ['127.0.0.2']);
    expect((await handshake(httpsPort, name, root)).done).toBe(false);
    const failed = (await api('GET', `/api/v1/sites/${siteId}/certificates`)).body.find(
      (certificate: { name: string }) => certificate.name === name,
    );
    expect(failed).toMatchObject({ state: 'failed', lastError: expect.any(String) });
    expect(new Date(failed.nextAttemptAt).getTime()).toBeGreaterThan(Date.now() + 60_000);

    await dns.clearA(name);
    const retried = await api('POST', `/api/v1/sites/${siteId}/certificates/${name}/retry`);
    expect(retried).toEqual({
      status: 200,
      body: expect.objectContaining({ name, state: 'valid', lastError: null, nextAttemptAt: null }),
    });
    expect((await handshake(httpsPort, name, root)).done).toBe(true);
    // Only the site's own certificates can be asked for.
    expect((await api('POST', `/api/v1/sites/${siteId}/certificates/console.wharf.test/retry`)).body.code).toBe(
      'CERTIFICATE_NOT_FOUND',
    );
  }, 60_000);
});
