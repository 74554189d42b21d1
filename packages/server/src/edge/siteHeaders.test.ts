import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, type TestClient } from '../../test/client.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { basic, siteRequest } from '../../test/siteClient.ts';
import { buildWorld, uploadRelease, type World } from '../../test/world.ts';

const FILES = [
  { name: 'index.html', content: '<p>home</p>' },
  { name: 'style.css', content: 'body{color:red}' },
  { name: 'docs/index.html', content: '<p>docs</p>' },
  { name: 'q?dir/index.html', content: '<p>a folder with a question mark</p>' },
  { name: 'a#b/index.html', content: '<p>a folder with a hash</p>' },
];

/** An upstream that answers with a Cache-Control of its own and two cookies. */
function startUpstream() {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, {
      'content-type': 'text/plain',
      'cache-control': 'private, no-store',
      'set-cookie': ['first=1', 'second=2'],
    });
    res.end('from upstream');
  });
  return new Promise<http.Server>((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe("the site's headers", () => {
  let server: TestServer;
  let upstream: http.Server;
  let world: World;
  let owner: TestClient;
  let port: number;
  let host: string;
  let branchPath: string;

  beforeAll(async () => {
    // The upstream listens on loopback: this installation proxies to its own machine on purpose.
    server = await startTestServer({ env: { WHARF_ALLOW_PRIVATE_UPSTREAMS: 'on' } });
    upstream = await startUpstream();
    port = Number(new URL(server.url).port);
    world = await buildWorld(server.url);
    owner = world.clients.owner;
    host = `${world.site.name}.localhost:${port}`;
    const sitePath = `/api/v1/sites/${world.site._id}`;
    branchPath = `${sitePath}/branches/${world.site.mainBranch}`;
    await uploadRelease(owner, world.site._id, 'no 404 page', ['main'], FILES);
    const siteHeaders = [
      { name: 'X-Frame-Options', value: 'DENY' },
      { name: 'Content-Security-Policy', value: "default-src 'self'" },
      { name: 'Cache-Control', value: 'public, max-age=60' },
    ];
    expectStatus(await owner.put(`${sitePath}/headers`, { headers: siteHeaders }), 200);
    const branchHeaders = [{ name: 'X-Branch', value: 'main' }];
    expectStatus(await owner.put(`${branchPath}/headers`, { headers: branchHeaders }), 200);
    const { port: upstreamPort } = upstream.address() as AddressInfo;
    const redirects = [
      { type: 'reverse_proxy', path: '/api/*', config: { url: `http://127.0.0.1:${upstreamPort}/` } },
      { type: 'reverse_proxy', path: '/down/*', config: { url: 'http://127.0.0.1:9/' } },
      { type: 'file', path: '/robots.txt', config: { content: 'User-agent: *' } },
    ];
    expectStatus(await owner.put(`${branchPath}/redirects`, { redirects }), 200);
  });
  afterAll(async () => {
    await server.close();
    upstream.close();
  });

  it.each([
    ['a file', 'GET', '/style.css', 200],
    ['a folder redirect', 'GET', '/docs', 301],
    ['the plain 404 page', 'GET', '/missing', 404],
    ['a method a file does not take', 'POST', '/style.css', 405],
    ['a proxied answer', 'GET', '/api/users', 200],
    ['the bad gateway page', 'GET', '/down/x', 502],
    ['a file rule', 'GET', '/robots.txt', 200],
    ['a path that cannot be decoded', 'GET', '/%E0%A4%A', 400],
    ['a range past the end', 'GET', '/style.css', 416, { range: 'bytes=999-' }],
    ['a failed precondition', 'GET', '/style.css', 412, { 'if-match': '"another"' }],
    ['an unknown form', 'POST', '/.wharf/forms/nope', 404],
  ])('reach %s', async (_what, method, path, status, headers: Record<string, string> = {}) => {
    const answer = await siteRequest(port, host, path, { method, headers });
    expect(answer.status).toBe(status);
    expect(answer.headers['x-frame-options']).toBe('DENY');
    expect(answer.headers['content-security-policy']).toBe("default-src 'self'");
    expect(answer.headers['x-branch']).toBe('main');
  });

  it("reach a 404 for a branch the site does not have, without any branch's own", async () => {
    const answer = await siteRequest(port, `nobranch.${host}`, '/');
    expect(answer.status).toBe(404);
    expect(answer.headers['x-frame-options']).toBe('DENY');
    expect(answer.headers['x-branch']).toBeUndefined();
  });

  it('reach the password prompt of a protected branch', async () => {
    expectStatus(await owner.put(`${branchPath}/password`, { password: 'letmein' }), 200);
    try {
      const prompt = await siteRequest(port, host, '/');
      expect(prompt.status).toBe(401);
      expect(prompt.headers['x-frame-options']).toBe('DENY');
      const inside = await siteRequest(port, host, '/', { headers: { authorization: basic('user', 'letmein') } });
      expect(inside.headers['x-branch']).toBe('main');
    } finally {
      expectStatus(await owner.delete(`${branchPath}/password`), 200);
    }
  });

  it("override the edge's defaults on files only: pages and upstreams keep their own", async () => {
    expect((await siteRequest(port, host, '/style.css')).headers['cache-control']).toBe('public, max-age=60');
    expect((await siteRequest(port, host, '/missing')).headers['cache-control']).toBe('no-store');
    const proxied = await siteRequest(port, host, '/api/users');
    expect(proxied.headers['cache-control']).toBe('private, no-store');
    // Node keeps repeated headers beside those set before writeHead only when they come as an object.
    expect(proxied.headers['set-cookie']).toEqual(['first=1', 'second=2']);
  });
});

describe('the folder redirect', () => {
  let server: TestServer;
  let port: number;
  let host: string;

  beforeAll(async () => {
    server = await startTestServer();
    port = Number(new URL(server.url).port);
    const world = await buildWorld(server.url);
    host = `${world.site.name}.localhost:${port}`;
    await uploadRelease(world.clients.owner, world.site._id, 'odd folders', ['main'], FILES);
  });
  afterAll(() => server.close());

  it.each([
    ['/q%3Fdir', '/q%3Fdir/', '<p>a folder with a question mark</p>'],
    ['/a%23b?x=1', '/a%23b/?x=1', '<p>a folder with a hash</p>'],
  ])('sends %s to %s, which serves the folder', async (path, location, content) => {
    const redirect = await siteRequest(port, host, path);
    expect([redirect.status, redirect.headers.location]).toEqual([301, location]);
    expect((await siteRequest(port, host, location)).text).toBe(content);
  });
});
