import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Bind9, startBind9 } from '../../../test/bind9.ts';
import { freePort, startTestServer, type TestServer } from '../../../test/harness.ts';
import { httpsGet } from '../../../test/httpsClient.ts';
import { acmeEnv, type Pebble, startPebble } from '../../../test/pebble.ts';
import { buildWorld } from '../../../test/world.ts';

const ZONE = 'wharf.test';
const CONSOLE = `console.${ZONE}`;
const SITES = `sites.${ZONE}`;

describe('wildcard certificates over DNS-01 (WHARF_ACME_DNS, RFC 2136 updates to BIND, checked by pebble)', () => {
  let dataDir: string;
  let bind9: Bind9;
  let pebble: Pebble;
  let server: TestServer;
  let httpsPort: number;
  let root: string;
  let siteName: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'wharf-wildcard-'));
    const plain = await startTestServer({ dataDir });
    siteName = (await buildWorld(plain.url, ['main', 'preview'])).site.name;
    await plain.close();

    bind9 = await startBind9(ZONE);
    const port = await freePort();
    // Pebble resolves names (and finds the TXT records) on BIND, which holds the zone.
    pebble = await startPebble({ httpPort: port, dnsServer: `127.0.0.1:${bind9.port}` });
    root = await pebble.issuedRoot();
    httpsPort = await freePort();
    server = await startTestServer({
      dataDir,
      port,
      env: { ...acmeEnv(pebble, httpsPort, ZONE), WHARF_ACME_DNS: bind9.setting() },
    });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await pebble?.stop();
    await bind9?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const names = async () =>
    (await server.app.db.selectFrom('tls_certificates').select('name').orderBy('name').execute()).map((r) => r.name);

  it('serves every site under one *.{sites host} certificate', async () => {
    const site = await httpsGet(httpsPort, `${siteName}.${SITES}`, root);
    expect(site.text).toContain('Hello from Wharf');
    expect(site.certificate.subjectaltname).toBe(`DNS:*.${SITES}`);
    expect(await names()).toEqual([`*.${SITES}`]);
  });

  it('serves every branch of a site under one *.{site}.{sites host} certificate', async () => {
    const branch = await httpsGet(httpsPort, `preview.${siteName}.${SITES}`, root);
    expect(branch.text).toContain('Hello from Wharf');
    expect(branch.certificate.subjectaltname).toBe(`DNS:*.${siteName}.${SITES}`);
    expect(await names()).toEqual([`*.${SITES}`, `*.${siteName}.${SITES}`].sort());
  });

  it('withdraws its TXT records once the certificate is issued', async () => {
    expect(await bind9.dig(`_acme-challenge.${SITES}`, 'TXT')).toBe('');
    expect(await bind9.dig(`_acme-challenge.${siteName}.${SITES}`, 'TXT')).toBe('');
  });

  it('still proves the console host over HTTP-01, with a certificate of its own', async () => {
    const answer = await httpsGet(httpsPort, CONSOLE, root, '/healthz');
    expect(answer.status).toBe(200);
    expect(answer.certificate.subjectaltname).toBe(`DNS:${CONSOLE}`);
  });
});
