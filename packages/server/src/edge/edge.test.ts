import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, type TestClient } from '../../test/client.ts';
import { type DnsPeer, startDnsPeer } from '../../test/dnsPeer.ts';
import { verifyDomains } from '../../test/domains.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { basic, siteRequest } from '../../test/siteClient.ts';
import { buildWorld, uploadRelease, type World } from '../../test/world.ts';

const METRICS_TOKEN = 'edge-metrics-token-0';
const BIG_JS = `const app = ${JSON.stringify('x'.repeat(5000))};`;
const FILES = [
  { name: 'index.html', content: '<!doctype html><title>home</title>' },
  { name: 'about.html', content: '<p>about</p>' },
  { name: 'docs/index.html', content: '<p>docs</p>' },
  { name: 'assets/app.3f9a1c2e.js', content: BIG_JS },
  { name: 'style.css', content: 'body{color:red}' },
  { name: '404.html', content: '<p>custom not found</p>' },
  { name: 'a b.txt', content: 'spaced' },
];

describe('the edge', () => {
  let server: TestServer;
  let dns: DnsPeer;
  let world: World;
  let owner: TestClient;
  let port: number;
  let host: string;
  let base: string;

  beforeAll(async () => {
    dns = await startDnsPeer();
    server = await startTestServer({ env: { WHARF_METRICS_TOKEN: METRICS_TOKEN, WHARF_DNS_SERVER: dns.server } });
    port = Number(new URL(server.url).port);
    world = await buildWorld(server.url);
    owner = world.clients.owner;
    host = `${world.site.name}.localhost:${port}`;
    base = `/api/v1/sites/${world.site._id}`;
    await uploadRelease(owner, world.site._id, 'edge files', ['main'], FILES);
  });
  afterAll(async () => {
    await server?.close();
    await dns?.close();
  });

  const get = (path: string, headers: Record<string, string> = {}, on = host) =>
    siteRequest(port, on, path, { headers });

  it('serves the main branch at the site host, and any branch at its own', async () => {
    expect((await get('/')).text).toBe('<!doctype html><title>home</title>');
    await uploadRelease(
      owner,
      world.site._id,
      'preview',
      ['feature/login'],
      [{ name: 'index.html', content: 'preview' }],
    );
    expect((await get('/', {}, `feature-login.${host}`)).text).toBe('preview');
    const mainBySlug = await get('/', {}, `main.${host}`);
    expect([mainBySlug.status, mainBySlug.headers.location]).toEqual([301, `http://${host}/`]);
  });

  it('answers a plain 404 for unknown hosts and branches', async () => {
    const unknownSite = await get('/', {}, `nope.localhost:${port}`);
    expect(unknownSite.status).toBe(404);
    expect(unknownSite.text).toContain('Not found');
    expect((await get('/', {}, `nobranch.${host}`)).status).toBe(404);
  });

  it('says nothing is deployed for a site without a release', async () => {
    const empty = expectStatus(
      await owner.post(`/api/v1/teams/${world.team._id}/sites`, { name: world.unique('empty') }),
      200,
    );
    const answer = await get('/', {}, `${empty.name}.localhost:${port}`);
    expect(answer.status).toBe(404);
    expect(answer.text).toContain('Nothing deployed yet');
  });

  it('finds files: exact, dir/index.html with a redirect to dir/, then path.html', async () => {
    expect((await get('/about')).text).toBe('<p>about</p>');
    const dir = await get('/docs?x=1');
    expect(dir.status).toBe(301);
    expect(dir.headers.location).toBe('/docs/?x=1');
    expect((await get('/docs/')).text).toBe('<p>docs</p>');
    expect((await get('/a%20b.txt')).text).toBe('spaced');
  });

  it("answers the release's 404.html with status 404", async () => {
    const answer = await get('/missing');
    expect(answer.status).toBe(404);
    expect(answer.text).toBe('<p>custom not found</p>');
  });

  it('never leaves the release, whatever the encoding', async () => {
    for (const path of [
      '/../../etc/passwd',
      '/%2e%2e/%2e%2e/etc/passwd',
      '/docs/..%2f..%2f..%2fetc/passwd',
      '/..%5c..%5cwharf.sqlite',
    ]) {
      const answer = await get(path);
      expect(answer.text).not.toContain('root:');
      expect([404, 400]).toContain(answer.status);
    }
    expect((await get('/%E0%A4%A')).status).toBe(400);
    expect((await get('/docs/../about')).text).toBe('<p>about</p>');
  });

  it('sets content type, length, ETag and cache control, and answers 304 and 206', async () => {
    const html = await get('/');
    expect(html.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(html.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
    const js = await get('/assets/app.3f9a1c2e.js');
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Number(js.headers['content-length'])).toBe(BIG_JS.length);
    const etag = String(js.headers.etag);
    expect((await get('/assets/app.3f9a1c2e.js', { 'if-none-match': etag })).status).toBe(304);
    const range = await get('/assets/app.3f9a1c2e.js', { range: 'bytes=0-4' });
    expect(range.status).toBe(206);
    expect(range.text).toBe('const');
    expect(range.headers['content-range']).toBe(`bytes 0-4/${BIG_JS.length}`);
    expect((await get('/assets/app.3f9a1c2e.js', { range: 'bytes=999999-' })).status).toBe(416);
  });

  it('streams files larger than those it keeps in memory, whole, by range and on HEAD', async () => {
    const large = Buffer.from(Array.from({ length: 1_500_000 }, (_, i) => 33 + (i % 94)));
    const files = [{ name: 'data.bin', content: large.toString('latin1') }];
    await uploadRelease(owner, world.site._id, 'large', ['large'], files);
    const on = `large.${host}`;
    const whole = await get('/data.bin', {}, on);
    expect(Number(whole.headers['content-length'])).toBe(large.length);
    expect(whole.body.equals(large)).toBe(true);
    const tail = await get('/data.bin', { range: 'bytes=1400000-' }, on);
    expect(tail.status).toBe(206);
    expect(tail.body.equals(large.subarray(1_400_000))).toBe(true);
    const head = await siteRequest(port, on, '/data.bin', { method: 'HEAD' });
    expect([head.headers['content-length'], head.body.length]).toEqual([String(large.length), 0]);
  });

  it('negotiates the brotli and gzip variants', async () => {
    const br = await get('/assets/app.3f9a1c2e.js', { 'accept-encoding': 'gzip, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(brotliDecompressSync(br.body).toString()).toBe(BIG_JS);
    const gz = await get('/assets/app.3f9a1c2e.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(BIG_JS);
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const answer = await siteRequest(port, host, '/style.css', { method: 'HEAD' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-length']).toBe('15');
    expect(answer.body.length).toBe(0);
  });

  it('serves /index.html for every unknown path in SPA mode, dotted ones too, as the peers do', async () => {
    const settings = {
      name: world.site.name,
      color: '#000000',
      mainBranch: world.site.mainBranch,
      spa: true,
      domains: [],
    };
    expectStatus(await owner.put(base, settings), 200);
    expect((await get('/some/client/route')).text).toBe('<!doctype html><title>home</title>');
    expect((await get('/users/john.doe')).text).toBe('<!doctype html><title>home</title>');
    expect((await get('/missing.png')).status).toBe(200);
    expectStatus(await owner.put(base, { ...settings, spa: false }), 200);
    expect((await get('/some/client/route')).status).toBe(404);
  });

  it('applies site headers, overridden by branch headers of the same name', async () => {
    expectStatus(
      await owner.put(`${base}/headers`, {
        headers: [
          { name: 'X-Frame-Options', value: 'DENY' },
          { name: 'X-Site', value: 'yes' },
        ],
      }),
      200,
    );
    const branchHeaders = [{ name: 'x-frame-options', value: 'SAMEORIGIN' }];
    expectStatus(await owner.put(`${base}/branches/${world.site.mainBranch}/headers`, { headers: branchHeaders }), 200);
    const answer = await get('/style.css');
    expect(answer.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(answer.headers['x-site']).toBe('yes');
  });

  it('protects a branch with a password, user "user", and remembers a verified one', async () => {
    expectStatus(await owner.put(`${base}/branches/${world.site.mainBranch}/password`, { password: 'letmein' }), 200);
    const missing = await get('/');
    expect(missing.status).toBe(401);
    expect(missing.headers['www-authenticate']).toContain('Basic realm=');
    expect((await get('/', { authorization: basic('user', 'wrong') })).status).toBe(401);
    expect((await get('/', { authorization: basic('admin', 'letmein') })).status).toBe(401);
    expect((await get('/', { authorization: basic('user', 'letmein') })).status).toBe(200);
    expectStatus(await owner.put(`${base}/branches/${world.site.mainBranch}/password`, { password: 'changed' }), 200);
    expect((await get('/', { authorization: basic('user', 'letmein') })).status).toBe(401);
    expectStatus(await owner.delete(`${base}/branches/${world.site.mainBranch}/password`), 200);
    expect((await get('/')).status).toBe(200);
  });

  it('reads the Basic scheme in any case', async () => {
    expectStatus(await owner.put(`${base}/branches/${world.site.mainBranch}/password`, { password: 'letmein' }), 200);
    const credential = basic('user', 'letmein').slice('Basic '.length);
    for (const scheme of ['basic', 'BASIC', 'bAsIc'])
      expect((await get('/', { authorization: `${scheme} ${credential}` })).status).toBe(200);
    expectStatus(await owner.delete(`${base}/branches/${world.site.mainBranch}/password`), 200);
  });

  it("uses the site's password where the branch has none", async () => {
    expectStatus(await owner.put(`${base}/password`, { password: 'site-secret' }), 200);
    expect((await get('/')).status).toBe(401);
    expect((await get('/', { authorization: basic('user', 'site-secret') })).status).toBe(200);
    expectStatus(await owner.delete(`${base}/password`), 200);
  });

  it('shows a rename of a site on the next request, without a restart', async () => {
    const site = expectStatus(
      await owner.post(`/api/v1/teams/${world.team._id}/sites`, { name: world.unique('before') }),
      200,
    );
    await uploadRelease(owner, site._id, 'r', ['main'], [{ name: 'index.html', content: 'renamed site' }]);
    const after = world.unique('after');
    expectStatus(
      await owner.put(`/api/v1/sites/${site._id}`, {
        name: after,
        color: '#000000',
        mainBranch: site.mainBranch,
        spa: false,
        domains: [],
      }),
      200,
    );
    expect((await get('/', {}, `${after}.localhost:${port}`)).text).toBe('renamed site');
    expect((await get('/', {}, `${site.name}.localhost:${port}`)).status).toBe(404);
  });

  it('serves custom domains, and branches under them when the domain exposes them', async () => {
    const domains = [{ name: 'www.example.test', exposeBranches: true, sslConfiguration: { type: 'acme' } }];
    const settings = {
      name: world.site.name,
      color: '#000000',
      mainBranch: world.site.mainBranch,
      spa: false,
      domains,
    };
    const saved = expectStatus(await owner.put(base, settings), 200);
    expect((await get('/about', {}, 'www.example.test')).status).toBe(404);
    await verifyDomains(owner, dns, world.site._id, saved.domains);
    expect((await get('/about', {}, 'www.example.test')).text).toBe('<p>about</p>');
    expect((await get('/', {}, 'feature-login.www.example.test')).text).toBe('preview');
    expectStatus(await owner.put(base, { ...settings, domains: [{ ...domains[0], exposeBranches: false }] }), 200);
    expect((await get('/', {}, 'feature-login.www.example.test')).status).toBe(404);
  });

  it('counts requests and bytes per site for /metrics and the traffic chart', async () => {
    const authorization = `Bearer ${METRICS_TOKEN}`;
    const metrics = await (await fetch(`${server.url}/metrics`, { headers: { authorization } })).text();
    expect(metrics).toMatch(new RegExp(`wharf_site_requests_total\\{site="${world.site.name}",status="2xx"\\} \\d+`));
    const bytes = new RegExp(`wharf_site_bytes_total\\{site="${world.site.name}"\\} (\\d+)`).exec(metrics);
    expect(Number(bytes?.[1])).toBeGreaterThan(BIG_JS.length);
    const traffic = expectStatus(await owner.get(`${base}/traffic?hours=2`), 200);
    expect(traffic[0].requests).toBeGreaterThan(10);
    expect(traffic[0].bytes).toBeGreaterThan(BIG_JS.length);
  });
});
