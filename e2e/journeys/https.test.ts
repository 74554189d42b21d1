import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  acmeEnv,
  buildWorld,
  type DnsPeer,
  expectStatus,
  freePort,
  httpsGet,
  type Pebble,
  startDnsPeer,
  startPebble,
  startTestServer,
  TEST_PASSWORD,
  type TestServer,
  verifyDomains,
  type World,
} from '@wharf/server/testing';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeInBrowser } from '../support/browser.ts';
import { CHROMIUM } from '../support/chromium.ts';
import { DESKTOP, expectVisible, snap } from '../support/journey.ts';

describeInBrowser('the console and a site over HTTPS, with certificates Wharf obtained from pebble', () => {
  let dataDir: string;
  let dns: DnsPeer;
  let pebble: Pebble;
  let server: TestServer;
  let browser: Browser;
  let world: World;
  let httpsPort: number;
  let root: string;
  const consoleUrl = () => `https://console.wharf.test:${httpsPort}`;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'wharf-e2e-https-'));
    dns = await startDnsPeer();
    const dnsEnv = { WHARF_DNS_SERVER: dns.server };
    // The world is built over plain HTTP first: with HTTPS on, plain HTTP only redirects.
    const plain = await startTestServer({ dataDir, env: dnsEnv });
    world = await buildWorld(plain.url, ['main', 'preview']);
    const { site, clients } = world;
    const domains = [
      { name: 'www.shop.test', exposeBranches: false, sslConfiguration: { type: 'acme' } },
      { name: 'soon.shop.test', exposeBranches: false, sslConfiguration: { type: 'acme' } },
    ];
    const settings = { name: site.name, color: site.color, mainBranch: site.mainBranch, spa: false, domains };
    const saved = expectStatus(await clients.owner.put(`/api/v1/sites/${site._id}`, settings), 200);
    await verifyDomains(clients.owner, dns, site._id, saved.domains);
    await plain.close();

    const port = await freePort();
    pebble = await startPebble({ httpPort: port, dnsServer: dns.server });
    root = await pebble.issuedRoot();
    httpsPort = await freePort();
    server = await startTestServer({
      dataDir,
      port,
      serveConsole: true,
      env: { ...acmeEnv(pebble, httpsPort), ...dnsEnv },
    });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      // Every test name is this machine; Chromium does not know pebble's root, Node's clients check it.
      args: ['--no-sandbox', '--disable-gpu', '--host-resolver-rules=MAP *.test 127.0.0.1'],
    });
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await pebble?.stop();
    await dns?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** A browser signed in to the console over HTTPS as the owner. */
  const signInOverHttps = async () => {
    const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: DESKTOP, colorScheme: 'light' });
    context.setDefaultTimeout(30_000);
    // The organization to open, and no analytics notice over the screen, as visit() sets them.
    await context.addInitScript((orgId: string) => {
      localStorage.setItem('wharf.currentOrg', orgId);
      localStorage.setItem('wharf.analyticsNotice', 'hidden');
    }, world.org._id);
    const page = await context.newPage();
    await page.goto(`${consoleUrl()}/login`);
    await page.getByLabel('User').fill('owner');
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname !== '/login');
    return { context, page };
  };

  it("signs in over HTTPS, serves a branch there, and shows each domain's certificate", async () => {
    // A visit to the custom domain obtains its certificate; the other domain has none yet.
    expect((await httpsGet(httpsPort, 'www.shop.test', root)).text).toContain('Hello from Wharf');
    // The console's first HTTPS visit: its certificate is obtained during this handshake.
    const { context, page } = await signInOverHttps();
    const visitor = await page.goto(`https://preview.${world.site.name}.sites.wharf.test:${httpsPort}/`);
    expect(visitor?.status()).toBe(200);
    expect(await visitor?.headerValue('strict-transport-security')).toBe('max-age=31536000');
    expect(await page.content()).toContain('Hello from Wharf');
    await page.goto(`${consoleUrl()}/sites/${world.site._id}/settings`);
    const www = page.getByRole('group', { name: 'Domain 1' });
    await expectVisible(
      www.getByText(/^Certificate valid until .* · covers www\..* · issued by Pebble Intermediate CA/),
    );
    const soon = page.getByRole('group', { name: 'Domain 2' });
    await expectVisible(soon.getByText(/^No certificate yet/));
    await www.getByText(/^Certificate valid until/).scrollIntoViewIfNeeded();
    await snap(page, 'site-settings-domain-acme');
    await context.close();
  });

  it("shows a failed certificate of the site's own host with its cause, and Retry now obtains it once DNS is fixed", async () => {
    const siteHost = `${world.site.name}.sites.wharf.test`;
    // Its name points where nothing answers the CA's check: the order at its first visit fails.
    await dns.addA(siteHost, ['127.0.0.2']);
    await expect(httpsGet(httpsPort, siteHost, root)).rejects.toThrow();
    const { context, page } = await signInOverHttps();
    await page.goto(`${consoleUrl()}/sites/${world.site._id}/settings`);
    const own = page.getByLabel(`Certificate of ${siteHost}`);
    await expectVisible(own.getByText('No certificate could be obtained'));
    await expectVisible(own.getByText(/127\.0\.0\.2.*connection refused/));
    await expectVisible(page.getByLabel(`Certificate of preview.${siteHost}`).getByText(/^Certificate valid until/));
    await own.scrollIntoViewIfNeeded();
    await snap(page, 'site-settings-certificate-failed');

    await dns.clearA(siteHost);
    await own.getByRole('button', { name: 'Retry now' }).click();
    await expectVisible(page.getByText(`Certificate obtained for ${siteHost}`));
    await expectVisible(own.getByText(/^Certificate valid until/));
    expect((await httpsGet(httpsPort, siteHost, root)).text).toContain('Hello from Wharf');
    await snap(page, 'site-settings-certificate-retried');
    await context.close();
  });
});
