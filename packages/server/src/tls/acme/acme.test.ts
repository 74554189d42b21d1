import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selfSignedCertificate } from '../../../test/certificates.ts';
import { expectStatus } from '../../../test/client.ts';
import { type DnsPeer, startDnsPeer } from '../../../test/dnsPeer.ts';
import { verifyDomains } from '../../../test/domains.ts';
import { databases, freePort, startTestServer, type TestServer, withPg } from '../../../test/harness.ts';
import { handshakes, httpsGet } from '../../../test/httpsClient.ts';
import { acmeEnv, type Pebble, startPebble } from '../../../test/pebble.ts';
import { buildWorld } from '../../../test/world.ts';
import { randomString } from '../../lib/ids.ts';
import { getSite } from '../../modules/sites/queries.ts';
import { ORDERS_PER_SITE_PER_HOUR } from './acmeCertificates.ts';

const run = promisify(execFile);
const CONSOLE = 'console.wharf.test';
const METRICS_TOKEN = 'acme-metrics-token-for-tests';
const SITES = 'sites.wharf.test';

for (const database of databases) {
  describe(`HTTPS with certificates obtained over ACME from pebble (${database.name})`, () => {
    let dataDir: string;
    let pebble: Pebble;
    let server: TestServer;
    let httpsPort: number;
    let root: string;
    let siteName: string;
    let siteId: string;
    let schema: string | undefined;
    let dns: DnsPeer;
    let manualExpiry: Date;

    beforeAll(async () => {
      // The world is built over plain HTTP first: with HTTPS on, plain HTTP only redirects.
      dataDir = await mkdtemp(path.join(os.tmpdir(), 'wharf-acme-'));
      if (database.postgres) {
        schema = `test_acme_${randomString(10)}`;
        await withPg((client) => client.query(`create schema ${schema}`));
      }
      // The DNS server Wharf checks ownership with, and pebble resolves names with (127.0.0.1 for all).
      dns = await startDnsPeer();
      const dnsEnv = { WHARF_DNS_SERVER: dns.server };
      const plain = await startTestServer({ dataDir, env: dnsEnv, ...(schema ? { schema } : {}) });
      const world = await buildWorld(plain.url, ['main', 'preview']);
      siteName = world.site.name;
      siteId = world.site._id;
      const manual = selfSignedCertificate('manual.shop.test');
      manualExpiry = new X509Certificate(manual.fullchain).validToDate;
      const domains = [
        { name: 'www.shop.test', exposeBranches: true, sslConfiguration: { type: 'acme' } },
        { name: 'plain.shop.test', exposeBranches: false, sslConfiguration: { type: 'external' } },
        { name: 'manual.shop.test', exposeBranches: false, sslConfiguration: { type: 'manual', ...manual } },
        // Saved, not verified: served by no one, so no certificate either.
        { name: 'unproven.shop.test', exposeBranches: false, sslConfiguration: { type: 'acme' } },
      ];
      const { site } = world;
      const settings = { name: site.name, color: site.color, mainBranch: site.mainBranch, spa: false, domains };
      const saved = expectStatus(await world.clients.owner.put(`/api/v1/sites/${siteId}`, settings), 200);
      const proven = saved.domains.filter((domain: { name: string }) => domain.name !== 'unproven.shop.test');
      await verifyDomains(world.clients.owner, dns, siteId, proven);
      await plain.close();

      const port = await freePort();
      pebble = await startPebble({ httpPort: port, dnsServer: dns.server });
      root = await pebble.issuedRoot();
      httpsPort = await freePort();
      server = await startTestServer({
        dataDir,
        port,
        postgres: database.postgres,
        ...(schema ? { schema } : {}),
        env: {
          ...acmeEnv(pebble, httpsPort),
          ...dnsEnv,
          WHARF_ACME_EMAIL: 'ops@wharf.test',
          WHARF_METRICS_TOKEN: METRICS_TOKEN,
        },
      });
    }, 60_000);
    afterAll(async () => {
      await server?.close();
      await pebble?.stop();
      await dns?.close();
      await rm(dataDir, { recursive: true, force: true });
      if (schema) await withPg((client) => client.query(`drop schema if exists ${schema} cascade`));
    });

    /** A branch without a release, straight in the database: a host the routing knows, no upload needed. */
    const addBranch = (slug: string) =>
      server.app.db
        .insertInto('branches')
        .values({
          id: `br-${slug}-${database.name}`,
          site_id: siteId,
          name: slug,
          slug,
          release_id: null,
          password_hash: null,
          password_version: null,
          headers: '[]',
          redirects: '[]',
          created_at: new Date().toISOString(),
        })
        .execute();

    const certificateRow = (name: string) =>
      server.app.db.selectFrom('tls_certificates').selectAll().where('name', '=', name).executeTakeFirst();

    it('obtains a certificate for the console host at its first TLS request, verified against the CA', async () => {
      const answer = await httpsGet(httpsPort, CONSOLE, root, '/api/v1/system/info');
      expect(answer.status).toBe(200);
      expect(answer.certificate.subjectaltname).toBe(`DNS:${CONSOLE}`);
      const row = await certificateRow(CONSOLE);
      expect(row).toMatchObject({ state: 'valid', site_id: null, last_error: null });
      // Keys at rest are sealed with the installation's secret, the account's as well.
      expect(row?.key_sealed).not.toContain('PRIVATE KEY');
      const account = await server.app.db.selectFrom('acme_accounts').selectAll().executeTakeFirstOrThrow();
      expect(account.directory_url).toBe(pebble.directoryUrl);
      expect(account.key_sealed).not.toContain('PRIVATE KEY');
      const env = await httpsGet(httpsPort, CONSOLE, root, '/api/v1/system/env');
      expect(JSON.parse(env.text).features.httpsAuto).toBe(true);
    });

    it("obtains one for a site's host and one for its branch host, each serving the branch", async () => {
      const site = await httpsGet(httpsPort, `${siteName}.${SITES}`, root);
      expect(site.text).toContain('Hello from Wharf');
      expect(site.certificate.subjectaltname).toBe(`DNS:${siteName}.${SITES}`);
      const branch = await httpsGet(httpsPort, `preview.${siteName}.${SITES}`, root);
      expect(branch.text).toContain('Hello from Wharf');
      expect(branch.certificate.subjectaltname).toBe(`DNS:preview.${siteName}.${SITES}`);
      expect((await certificateRow(`preview.${siteName}.${SITES}`))?.site_id).toBe(siteId);
    });

    it('curl verifies the chain against the CA with --resolve', async () => {
      const rootFile = path.join(dataDir, 'pebble-root.pem');
      await writeFile(rootFile, root);
      const host = `${siteName}.${SITES}`;
      // Asynchronously: the server answering curl runs in this process.
      const { stdout: body } = await run('curl', [
        '--silent',
        '--show-error',
        '--fail',
        '--cacert',
        rootFile,
        '--resolve',
        `${host}:${httpsPort}:127.0.0.1`,
        `https://${host}:${httpsPort}/`,
      ]);
      expect(body).toContain('Hello from Wharf');
    });

    it('obtains one for a custom domain set to acme and its branch hosts, none for external', async () => {
      const domain = await httpsGet(httpsPort, 'www.shop.test', root);
      expect(domain.text).toContain('Hello from Wharf');
      expect(domain.certificate.subjectaltname).toBe('DNS:www.shop.test');
      expect((await httpsGet(httpsPort, 'preview.www.shop.test', root)).text).toContain('Hello from Wharf');
      expect(await handshakes(httpsPort, 'plain.shop.test', root)).toBe(false);
      expect(await certificateRow('plain.shop.test')).toBeUndefined();
      // The site's answer shows the domain's certificate: valid until when, no error.
      const site = await getSite(server.app.db, server.app.config, siteId);
      const www = site.domains.find((entry) => entry.name === 'www.shop.test');
      expect(www?.sslConfiguration).toEqual({
        type: 'acme',
        status: {
          state: 'valid',
          validUntil: new Date(new X509Certificate(domain.certificate.raw).validTo).toISOString(),
          lastError: null,
          nextAttemptAt: null,
          // What it covers and who issued it: pebble's intermediate.
          names: ['www.shop.test'],
          issuer: expect.stringMatching(/^Pebble Intermediate CA/),
        },
      });
    });

    it('serves the manual certificate saved on a domain', async () => {
      const answer = await new Promise<X509Certificate>((resolve, reject) => {
        const socket = tls.connect(
          { host: '127.0.0.1', port: httpsPort, servername: 'manual.shop.test', rejectUnauthorized: false },
          () => {
            resolve(new X509Certificate(socket.getPeerCertificate().raw));
            socket.end();
          },
        );
        socket.on('error', reject);
      });
      expect(answer.subject).toContain('CN=manual.shop.test');
      expect(await certificateRow('manual.shop.test')).toBeUndefined();
    });

    it('tells /metrics when each certificate it serves expires, obtained and manual alike', async () => {
      const headers = { host: CONSOLE, authorization: `Bearer ${METRICS_TOKEN}` };
      const answer = await httpsGet(httpsPort, CONSOLE, root, '/metrics', { headers });
      expect(answer.status).toBe(200);
      const expiry = (name: string, source: string) =>
        new RegExp(
          `^wharf_certificate_expiry_timestamp_seconds\\{name="${name}",source="${source}"\\} (\\S+)$`,
          'm',
        ).exec(answer.text)?.[1];
      const obtained = await certificateRow(CONSOLE);
      expect(Number(expiry(CONSOLE, 'acme'))).toBe(new Date(obtained!.not_after!).getTime() / 1000);
      expect(Number(expiry('manual.shop.test', 'manual'))).toBe(manualExpiry.getTime() / 1000);
      // Saved but not verified: not served, so not reported either.
      expect(answer.text).not.toContain('unproven.shop.test');
    });

    it('refuses names Wharf does not serve, and orders nothing for them', async () => {
      const refused = [`nosuch.${SITES}`, `nobranch.${siteName}.${SITES}`, 'example.org', 'unproven.shop.test'];
      for (const name of [...refused, 'a.b.c.d.shop.test']) expect(await handshakes(httpsPort, name, root)).toBe(false);
      const rows = await server.app.db.selectFrom('tls_certificates').select('name').execute();
      expect(rows.map((row) => row.name).sort()).toEqual(
        [
          CONSOLE,
          `${siteName}.${SITES}`,
          `preview.${siteName}.${SITES}`,
          'preview.www.shop.test',
          'www.shop.test',
        ].sort(),
      );
    });

    it('renews a certificate 30 days before it expires, and serves the new one without a restart', async () => {
      const before = await httpsGet(httpsPort, CONSOLE, root, '/healthz');
      const soon = new Date(Date.now() + 20 * 24 * 60 * 60_000).toISOString();
      await server.app.db
        .updateTable('tls_certificates')
        .set({ not_after: soon })
        .where('name', '=', CONSOLE)
        .execute();
      await server.app.acme?.certificates.renewDue();
      const after = await httpsGet(httpsPort, CONSOLE, root, '/healthz');
      expect(after.certificate.serialNumber).not.toBe(before.certificate.serialNumber);
      expect((await certificateRow(CONSOLE))?.not_after).not.toBe(soon);
    });

    it('records a failed order with its reason and waits before trying again', async () => {
      const name = `broken.${siteName}.${SITES}`;
      await addBranch('broken');
      // Its name points at an address where nothing answers pebble's check: the order fails.
      await dns.addA(name, ['127.0.0.2']);
      expect(await handshakes(httpsPort, name, root)).toBe(false);
      const row = await certificateRow(name);
      expect(row).toMatchObject({ state: 'failed', attempts: 1, chain: null });
      expect(row?.last_error).toBeTruthy();
      expect(new Date(row!.retry_at!).getTime()).toBeGreaterThan(Date.now() + 60_000);
      // Asked again at once, it does not order again.
      expect(await handshakes(httpsPort, name, root)).toBe(false);
      expect((await certificateRow(name))?.attempts).toBe(1);
    });

    it('holds back new names of a site past its hourly limit', async () => {
      const time = new Date().toISOString();
      await server.app.db
        .insertInto('tls_certificates')
        .values(
          Array.from({ length: ORDERS_PER_SITE_PER_HOUR }, (_, i) => ({
            name: `filler-${i}.${siteName}.${SITES}`,
            site_id: siteId,
            state: 'failed' as const,
            attempts: 1,
            created_at: time,
            updated_at: time,
          })),
        )
        .execute();
      await addBranch('late');
      expect(await handshakes(httpsPort, `late.${siteName}.${SITES}`, root)).toBe(false);
      expect(await certificateRow(`late.${siteName}.${SITES}`)).toBeUndefined();
    });
  });
}
