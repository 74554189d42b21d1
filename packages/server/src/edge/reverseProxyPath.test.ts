import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus } from '../../test/client.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { siteRequest } from '../../test/siteClient.ts';
import { buildWorld } from '../../test/world.ts';

interface Received {
  url: string;
  headers: http.IncomingHttpHeaders;
}

/** A real upstream that records the request line and headers it received, and answers with hop-by-hop headers of its own. */
function startRecordingUpstream() {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    received.push({ url: req.url ?? '', headers: req.headers });
    res.writeHead(200, {
      connection: 'x-upstream-hop',
      'x-upstream-hop': 'between the upstream and Wharf only',
      'keep-alive': 'timeout=5',
      'x-upstream-kept': 'for the visitor',
    });
    res.end('ok');
  });
  return new Promise<{ server: http.Server; port: number; last: () => Received }>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, port: (server.address() as AddressInfo).port, last: () => received.at(-1)! }),
    ),
  );
}

describe('what a reverse-proxy rule forwards', () => {
  let server: TestServer;
  let upstream: Awaited<ReturnType<typeof startRecordingUpstream>>;
  let port: number;
  let host: string;

  beforeAll(async () => {
    // The upstream runs on loopback, which Wharf refuses unless the operator allows private upstreams.
    server = await startTestServer({ env: { WHARF_ALLOW_PRIVATE_UPSTREAMS: 'on' } });
    upstream = await startRecordingUpstream();
    port = Number(new URL(server.url).port);
    const world = await buildWorld(server.url);
    host = `${world.site.name}.localhost:${port}`;
    const base = `http://127.0.0.1:${upstream.port}/base`;
    const redirects = [
      { type: 'reverse_proxy', path: '/api/*', config: { url: base, stripPathPrefix: '/api' } },
      { type: 'reverse_proxy', path: '/app*', config: { url: base, stripPathPrefix: '/app' } },
      { type: 'reverse_proxy', path: '/api*', config: { url: base, stripPathPrefix: '/api/' } },
    ];
    const path = `/api/v1/sites/${world.site._id}/branches/${world.site.mainBranch}/redirects`;
    expectStatus(await world.clients.owner.put(path, { redirects }), 200);
  });
  afterAll(async () => {
    await server.close();
    upstream.server.close();
  });

  const forwarded = async (path: string, headers: Record<string, string> = {}) => {
    const answer = await siteRequest(port, host, path, { headers });
    expect(answer.status, path).toBe(200);
    return upstream.last().url;
  };

  it('forwards the path as the client encoded it', async () => {
    expect(await forwarded('/api/a%3Fb')).toBe('/base/a%3Fb');
    expect(await forwarded('/api/a%23b')).toBe('/base/a%23b');
    expect(await forwarded('/api/a%2Fb/c')).toBe('/base/a%2Fb/c');
    expect(await forwarded('/api/caf%C3%A9/%20x')).toBe('/base/caf%C3%A9/%20x');
    expect(await forwarded('/api/dir/?q=a%26b&r=%3F')).toBe('/base/dir/?q=a%26b&r=%3F');
  });

  it('escapes what a path may not hold and resolves dot segments as the rule matching does', async () => {
    expect(await forwarded('/api/a"b\\c')).toBe('/base/a%22b%5Cc');
    expect(await forwarded('/api/x/%2e%2e/y/./z')).toBe('/base/y/z');
  });

  it('strips the prefix only on a segment boundary', async () => {
    expect(await forwarded('/app/x')).toBe('/base/x');
    expect(await forwarded('/app')).toBe('/base/');
    expect(await forwarded('/apple/x')).toBe('/base/apple/x');
    expect(await forwarded('/apiary/x')).toBe('/base/apiary/x');
  });

  it('drops hop-by-hop headers and every header named in Connection, both ways', async () => {
    const answer = await siteRequest(port, host, '/api/headers', {
      headers: {
        connection: 'x-visitor-hop, keep-alive',
        'x-visitor-hop': 'between the visitor and Wharf only',
        'keep-alive': 'timeout=5',
        te: 'trailers',
        'proxy-authorization': 'Basic c2VjcmV0',
        'x-visitor-kept': 'for the upstream',
      },
    });
    const { headers } = upstream.last();
    expect(headers['x-visitor-kept']).toBe('for the upstream');
    for (const name of ['x-visitor-hop', 'keep-alive', 'te', 'proxy-authorization'])
      expect(headers[name], name).toBeUndefined();
    expect(headers.connection).not.toContain('x-visitor-hop');
    expect(answer.headers['x-upstream-kept']).toBe('for the visitor');
    expect(answer.headers['x-upstream-hop']).toBeUndefined();
    expect(answer.headers.connection).not.toContain('x-upstream-hop');
  });
});
