import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, type TestClient } from '../../test/client.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { siteRequest } from '../../test/siteClient.ts';
import { buildWorld, uploadRelease, type World } from '../../test/world.ts';

/** An upstream that says what it was asked. */
function startUpstream() {
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ method: req.method, url: req.url }));
  });
  return new Promise<http.Server>((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const page = (title: string) => `<!doctype html><title>${title}</title>`;

describe('a release’s _redirects and _headers at the edge', () => {
  let server: TestServer;
  let upstream: http.Server;
  let world: World;
  let owner: TestClient;
  let port: number;
  let host: string;
  let problems: { file: string; line: number; message: string; severity: string }[];

  const get = (path: string, options: Parameters<typeof siteRequest>[3] = {}, onHost = host) =>
    siteRequest(port, onHost, path, options);

  beforeAll(async () => {
    server = await startTestServer({ env: { WHARF_ALLOW_PRIVATE_UPSTREAMS: 'on' } });
    upstream = await startUpstream();
    port = Number(new URL(server.url).port);
    world = await buildWorld(server.url);
    owner = world.clients.owner;
    host = `${world.site.name}.localhost:${port}`;
    const upstreamPort = (upstream.address() as AddressInfo).port;
    const redirects = [
      '# moved pages',
      '/old            /new',
      '/temporary      /elsewhere        302',
      '/news/*         /blog/:splat',
      '/docs/:version/:page   /manual/:page?v=:version   301',
      '/store  id=:id  /products/:id     301',
      '/about          /not-used',
      '/forced         /index.html       200!',
      '/shadowed.html  /new              301!',
      '/app/*          /index.html       200',
      '/blog/*         /blog/404.html    404',
      `/api/*          http://127.0.0.1:${upstreamPort}/v2/:splat   200`,
      `http://preview.${world.site.name}.localhost/*   http://${world.site.name}.localhost/:splat   301!`,
      '/loop-a  /loop-b',
      '/loop-b  /loop-a',
      '/bad',
      '/country  /us  302  Country=us',
    ].join('\n');
    const headers = [
      '/*',
      '  X-Frame-Options: DENY',
      '  X-Robots-Tag: noarchive',
      '/assets/*',
      '  Cache-Control: public, max-age=31536000, immutable',
      '/embed/*',
      '  ! X-Frame-Options',
      '  X-Robots-Tag: noindex',
      '  a line without a colon',
    ].join('\n');
    const release = await uploadRelease(
      owner,
      world.site._id,
      'rules',
      ['main', 'preview'],
      [
        { name: 'index.html', content: page('home') },
        { name: 'about.html', content: page('about') },
        { name: 'shadowed.html', content: page('shadowed') },
        { name: 'new.html', content: page('new') },
        { name: 'blog/404.html', content: page('blog not found') },
        { name: 'blog/first.html', content: page('first post') },
        { name: 'assets/app.js', content: 'console.log(1)' },
        { name: 'embed/widget.html', content: page('widget') },
        { name: '_redirects', content: redirects },
        { name: '_headers', content: headers },
      ],
    );
    problems = release.ruleProblems;
  });
  afterAll(async () => {
    await server?.close();
    upstream?.close();
  });

  it('lists each problem of the files with its line, and serves neither file', async () => {
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ file: '_redirects', line: 16, severity: 'error' }),
        expect.objectContaining({ file: '_redirects', line: 17, severity: 'error' }),
        expect.objectContaining({ file: '_headers', line: 9, severity: 'error' }),
        expect.objectContaining({ file: '_redirects', severity: 'warning', message: expect.stringMatching(/loop/i) }),
      ]),
    );
    const listed = expectStatus(await owner.get(`/api/v1/sites/${world.site._id}/releases?page=0&size=10`), 200);
    expect(listed.items[0].ruleProblems).toEqual(problems);
    for (const path of ['/_redirects', '/_headers']) expect((await get(path)).status).toBe(404);
  });

  it('redirects with 301 by default, the status asked for, splats, placeholders and query parameters', async () => {
    const moved = await get('/old?ref=mail');
    expect([moved.status, moved.headers.location]).toEqual([301, '/new?ref=mail']);
    expect((await get('/old/')).headers.location).toBe('/new');
    expect((await get('/temporary')).status).toBe(302);
    expect((await get('/news/2024/launch')).headers.location).toBe('/blog/2024/launch');
    expect((await get('/docs/v2/install')).headers.location).toBe('/manual/install?v=v2');
    expect((await get('/store?id=42')).headers.location).toBe('/products/42');
    // Without the parameter the rule does not match: the path has no file, so it is a 404.
    expect((await get('/store')).status).toBe(404);
  });

  it('lets a file shadow a rule unless the rule is forced with !', async () => {
    expect((await get('/about')).text).toBe(page('about'));
    const forced = await get('/forced');
    expect([forced.status, forced.text]).toEqual([200, page('home')]);
    expect((await get('/shadowed.html')).headers.location).toBe('/new');
  });

  it('rewrites with 200, serves a custom not-found page with 404, and proxies through the outbound guard', async () => {
    const rewritten = await get('/app/settings/profile');
    expect([rewritten.status, rewritten.text]).toEqual([200, page('home')]);
    expect((await get('/blog/first')).text).toBe(page('first post'));
    const missing = await get('/blog/nothing-here');
    expect([missing.status, missing.text]).toEqual([404, page('blog not found')]);
    const proxied = await get('/api/users?page=2', { method: 'POST', body: 'x' });
    expect(JSON.parse(proxied.text)).toEqual({ method: 'POST', url: '/v2/users?page=2' });
  });

  it('applies host rules to the host they name', async () => {
    const fromPreview = await get('/blog/first', {}, `preview.${world.site.name}.localhost:${port}`);
    expect([fromPreview.status, fromPreview.headers.location]).toEqual([
      301,
      `http://${world.site.name}.localhost/blog/first`,
    ]);
    expect((await get('/blog/first')).status).toBe(200);
  });

  it('applies _headers by path, combining blocks and removing what a block says, under the console’s headers', async () => {
    const home = await get('/');
    expect(home.headers['x-frame-options']).toBe('DENY');
    const asset = await get('/assets/app.js');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const embed = await get('/embed/widget');
    expect(embed.headers['x-frame-options']).toBeUndefined();
    expect(embed.headers['x-robots-tag']).toBe('noarchive, noindex');

    const base = `/api/v1/sites/${world.site._id}`;
    expectStatus(
      await owner.put(`${base}/headers`, {
        headers: [
          { name: 'X-Robots-Tag', value: 'all' },
          { name: 'Cache-Control', value: 'no-store', path: '/assets/*' },
        ],
      }),
      200,
    );
    expect((await get('/embed/widget')).headers['x-robots-tag']).toBe('all');
    expect((await get('/assets/app.js')).headers['cache-control']).toBe('no-store');
    expect((await get('/')).headers['cache-control']).toBe('public, max-age=0, must-revalidate');
    expectStatus(await owner.put(`${base}/headers`, { headers: [] }), 200);
  });

  it('redirects /about.html to /about (308) while pretty URLs are on, and serves it when they are off', async () => {
    const pretty = await get('/about.html?x=1');
    expect([pretty.status, pretty.headers.location]).toEqual([308, '/about?x=1']);
    expect((await get('/index.html')).headers.location).toBe('/');
    const settings = {
      name: world.site.name,
      color: '#000000',
      mainBranch: world.site.mainBranch,
      spa: false,
      domains: [],
    };
    const site = expectStatus(
      await owner.put(`/api/v1/sites/${world.site._id}`, { ...settings, prettyUrls: false }),
      200,
    );
    expect(site.prettyUrls).toBe(false);
    expect((await get('/about.html')).text).toBe(page('about'));
    // A settings update that leaves prettyUrls out keeps it as it is.
    expect(expectStatus(await owner.put(`/api/v1/sites/${world.site._id}`, settings), 200).prettyUrls).toBe(false);
    expectStatus(await owner.put(`/api/v1/sites/${world.site._id}`, { ...settings, prettyUrls: true }), 200);
  });

  it('answers a console redirect rule with its status, keeping the query, before the release’s rules', async () => {
    const redirectsPath = `/api/v1/sites/${world.site._id}/branches/${world.site.mainBranch}/redirects`;
    const redirects = [
      { type: 'redirect', path: '/go/*', config: { target: 'https://example.com/landing', status: 307 } },
      // The release's _redirects sends /old to /new: the console's rule comes first.
      { type: 'redirect', path: '/old', config: { target: '/from-console', status: 302 } },
    ];
    expectStatus(await owner.put(redirectsPath, { redirects }), 200);
    const answer = await get('/go/now?utm=1');
    expect([answer.status, answer.headers.location]).toEqual([307, 'https://example.com/landing?utm=1']);
    const overridden = await get('/old');
    expect([overridden.status, overridden.headers.location]).toEqual([302, '/from-console']);
    const refused = await owner.put(redirectsPath, {
      redirects: [{ type: 'redirect', path: '/x', config: { target: 'elsewhere', status: 303 } }],
    });
    expect(refused.status).toBe(400);
    expectStatus(await owner.put(redirectsPath, { redirects: [] }), 200);
  });
});

describe('a _redirects proxy on an installation that keeps private addresses out', () => {
  it('refuses to reach a loopback upstream, as the console’s reverse-proxy rules do', async () => {
    const server = await startTestServer();
    const upstream = await startUpstream();
    try {
      const world = await buildWorld(server.url);
      const upstreamPort = (upstream.address() as AddressInfo).port;
      await uploadRelease(
        world.clients.owner,
        world.site._id,
        'proxy',
        ['main'],
        [
          { name: 'index.html', content: page('home') },
          { name: '_redirects', content: `/api/*  http://127.0.0.1:${upstreamPort}/:splat  200` },
        ],
      );
      const port = Number(new URL(server.url).port);
      const answer = await siteRequest(port, `${world.site.name}.localhost:${port}`, '/api/secrets');
      expect(answer.status).toBe(502);
      expect(answer.text).not.toContain('"method"');
    } finally {
      await server.close();
      upstream.close();
    }
  });
});
