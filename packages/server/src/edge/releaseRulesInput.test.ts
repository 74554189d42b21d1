import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { HOSTILE_PATH_INPUTS as HOSTILE } from '../../test/hostileInput.ts';
import { rawRequest } from '../../test/rawRequest.ts';
import { siteRequest } from '../../test/siteClient.ts';
import { buildWorld, uploadRelease } from '../../test/world.ts';

/** An upstream that answers with the request line it received. */
function startUpstream() {
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(req.url);
  });
  return new Promise<http.Server>((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const PREFIXES = ['/news/', '/flat/', '/proxy/', '/rewrite/', '/host/', '/tag/', '/empty/', '/'];

const page = (title: string) => `<!doctype html><title>${title}</title>`;

describe('visitor input in _redirects and _headers captures', () => {
  let server: TestServer;
  let upstream: http.Server;
  let port: number;
  let host: string;
  let problems: { file: string; line: number; message: string; severity: string }[];
  const get = (path: string) => siteRequest(port, host, path);

  beforeAll(async () => {
    // The upstream is on loopback, which Wharf refuses unless the operator allows private upstreams.
    server = await startTestServer({ env: { WHARF_ALLOW_PRIVATE_UPSTREAMS: 'on' } });
    upstream = await startUpstream();
    port = Number(new URL(server.url).port);
    const world = await buildWorld(server.url);
    host = `${world.site.name}.localhost:${port}`;
    const upstreamPort = (upstream.address() as AddressInfo).port;
    const redirects = [
      '/authors/c%C3%A9line   /authors/about-c%C3%A9line   301',
      `/proxy/*    http://127.0.0.1:${upstreamPort}/up/:splat   200`,
      '/flat/*     /:splat   301',
      '/news/*     /blog/:splat   301',
      '/tag/:name  /search?q=:name   302',
      '/empty/*    /:splat/landing   302',
      '/host/:sub  https://:sub.example.com/welcome   302',
      '/rewrite/*  /files/:splat   200',
      '/loop-self  /loop-self   301!',
      '/trailing   /trailing/   301!',
      '/loop-query  /loop-query?x=1   301!',
      '/store  id=:id  /products/:id?from=:id   301',
      `http://${world.site.name}.localhost/same/*  http://${world.site.name}.localhost/same/:splat  301!`,
      `http://${world.site.name}.localhost/secure/*  https://${world.site.name}.localhost/secure/:splat  301!`,
    ].join('\n');
    const headers = ['/*', '  X-Asset: :splat', '/caf%C3%A9/*', '  X-Menu: yes'].join('\n');
    const release = await uploadRelease(
      world.clients.owner,
      world.site._id,
      'input',
      ['main'],
      [
        { name: 'index.html', content: page('home') },
        { name: '日本.txt', content: 'nihon' },
        { name: 'café/menu.html', content: page('menu') },
        { name: 'loop-self.html', content: page('self') },
        { name: 'loop-query.html', content: page('query') },
        { name: 'trailing/index.html', content: page('trailing') },
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

  it('matches a percent-encoded from, however the request encodes the same path', async () => {
    for (const path of ['/authors/c%C3%A9line', '/authors/c%c3%a9line', '/authors/ce%CC%81line']) {
      const answer = await rawRequest(port, host, path);
      expect([answer.status, answer.headers.location], path).toEqual([301, '/authors/about-c%C3%A9line']);
    }
    expect((await rawRequest(port, host, '/caf%C3%A9/menu')).headers['x-menu']).toBe('yes');
    expect((await rawRequest(port, host, '/cafe%CC%81/menu')).headers['x-menu']).toBe('yes');
  });

  it('forwards a proxied capture with its escapes: no query, fragment or segment is injected', async () => {
    for (const escaped of ['a%3Fb', 'a%23b', 'a%2Fb', '%E6%97%A5', 'a%20b', '%5C']) {
      expect((await get(`/proxy/${escaped}`)).text).toBe(`/up/${escaped}`);
    }
    expect((await get('/proxy/deep/path?page=2')).text).toBe('/up/deep/path?page=2');
  });

  it('writes a capture into a Location encoded for where it goes, never as an open redirect', async () => {
    const cases: [string, string][] = [
      ['/news/a%20b', '/blog/a%20b'],
      ['/news/%E6%97%A5%E6%9C%AC', '/blog/%E6%97%A5%E6%9C%AC'],
      ['/news/a%3Fb', '/blog/a%3Fb'],
      ['/flat/%5Cevil.example', '/%5Cevil.example'],
      ['/flat/%2F%2Fevil.example', '/%2F%2Fevil.example'],
      ['/tag/a&b=c+d', '/search?q=a%26b%3Dc%2Bd'],
      ['/empty', '/landing'],
      ['/host/shop', 'https://shop.example.com/welcome'],
    ];
    for (const [path, location] of cases)
      expect((await rawRequest(port, host, path)).headers.location, path).toBe(location);
    // A capture that is no host name cannot go into one: the rule does not apply.
    for (const path of ['/host/%0d%0a', '/host/%5B', '/host/%25', '/host/a.b%2Fc'])
      expect((await rawRequest(port, host, path)).status, path).toBe(404);
  });

  it('puts a capture into a header value as visible ASCII', async () => {
    const answer = await rawRequest(port, host, '/%E6%97%A5%E6%9C%AC.txt');
    expect(answer.status).toBe(200);
    expect(answer.headers['x-asset']).toBe('%E6%97%A5%E6%9C%AC.txt');
  });

  it('ignores a rule that would redirect to the address asked for, and warns about it at upload', async () => {
    expect((await get('/loop-self')).text).toBe(page('self'));
    expect((await get('/loop-query?x=1')).text).toBe(page('query'));
    expect((await get('/loop-query')).headers.location).toBe('/loop-query?x=1');
    expect((await get('/trailing/')).text).toBe(page('trailing'));
    // Its own absolute URL too, on the scheme it was asked with; to https it is a redirect.
    expect((await get('/same/page')).status).toBe(404);
    expect((await get('/secure/page')).headers.location).toBe(`https://${host.split(':')[0]}/secure/page`);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ line: 9, severity: 'warning', message: expect.stringMatching(/itself/) }),
        expect.objectContaining({ line: 10, severity: 'warning', message: expect.stringMatching(/itself/) }),
      ]),
    );
  });

  it('never answers 5xx nor a malformed Location or header, whatever the path holds', async () => {
    for (const prefix of PREFIXES) {
      for (const input of HOSTILE) {
        const path = `${prefix}${input}`;
        const answer = await rawRequest(port, host, path);
        expect(answer.status, path).toBeGreaterThanOrEqual(200);
        expect(answer.status, path).toBeLessThan(500);
        const location = answer.headers.location;
        if (location !== undefined) {
          expect(location, path).toMatch(/^[\x21-\x7e]+$/);
          expect(location, path).not.toMatch(/^\/[/\\]/);
        }
        expect(answer.headers['x-asset'] ?? '', path).toMatch(/^[\x21-\x7e]*$/);
        expect(answer.headers['set-cookie'], path).toBeUndefined();
      }
    }
    for (const input of HOSTILE) {
      const answer = await rawRequest(port, host, `/store?id=${input}`);
      expect(answer.status, input).toBeLessThan(500);
      if (answer.status === 301) expect(answer.headers.location, input).toMatch(/^\/products\/[\x21-\x7e]+$/);
    }
  });
});
