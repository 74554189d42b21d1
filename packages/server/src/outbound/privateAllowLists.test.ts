import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus } from '../../test/client.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { startReceiver } from '../../test/receiver.ts';
import { siteRequest } from '../../test/siteClient.ts';
import { buildWorld, type World } from '../../test/world.ts';
import { loadConfig } from '../config/load.ts';

/** A service on loopback, standing for an internal Jenkins or Mattermost. */
function startInternalService() {
  const server = http.createServer((_req, res) => res.end('internal service'));
  return new Promise<{ server: http.Server; port: number }>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as AddressInfo).port })),
  );
}

/** What a site's members try: a hook and a reverse-proxy rule to the same internal address. */
function tenant(world: World) {
  const { owner } = world.clients;
  return {
    saveHook: (url: string) =>
      owner.post(`/api/v1/sites/${world.site._id}/hooks`, {
        type: 'web',
        name: `hook to ${url}`,
        events: ['site_branch_added'],
        config: { url },
      }),
    saveProxyRule: (url: string) =>
      owner.put(`/api/v1/sites/${world.site._id}/branches/${world.site.mainBranch}/redirects`, {
        redirects: [{ type: 'reverse_proxy', path: '/internal/*', config: { url } }],
      }),
    addBranch: (name: string) =>
      owner.post(`/api/v1/sites/${world.site._id}/branches`, { name, releaseId: world.release._id }),
  };
}

describe('private hosts allowed for hooks only (WHARF_HOOKS_ALLOWED_PRIVATE)', () => {
  let server: TestServer;
  let world: World;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    receiver = await startReceiver(() => ({ status: 200 }));
    server = await startTestServer({ env: { WHARF_HOOKS_ALLOWED_PRIVATE: 'LOCALHOST., 10.1.0.0/16' } });
    world = await buildWorld(server.url);
  });
  afterAll(async () => {
    await server.close();
    await receiver.close();
  });

  it('delivers hooks to a listed name on the private network, and lets no proxy rule reach it', async () => {
    const url = receiver.url.replace('127.0.0.1', 'localhost');
    const { saveHook, saveProxyRule, addBranch } = tenant(world);
    expectStatus(await saveHook(url), 200);
    expectStatus(await addBranch('to-jenkins'), 200);
    const [request] = await receiver.received(1);
    expect(request!.body).toContain('to-jenkins');

    const proxied = await saveProxyRule(url);
    expect(proxied.status).toBe(400);
    expect(proxied.body.code).toBe('UPSTREAM_NOT_ALLOWED');
    expect(proxied.body.message).toContain('WHARF_PROXY_ALLOWED_PRIVATE');
  });

  it('refuses a hook to an address outside the listed networks, and to a name not listed', async () => {
    const { saveHook } = tenant(world);
    for (const url of ['http://127.0.0.1:9/hook', 'http://10.2.0.1/hook', 'http://jenkins.internal/hook']) {
      const answer = await saveHook(url);
      expect(answer.status, url).toBe(400);
      expect(answer.body.code, url).toBe('UPSTREAM_NOT_ALLOWED');
      expect(answer.body.message, url).toContain('WHARF_HOOKS_ALLOWED_PRIVATE');
    }
    expectStatus(await saveHook('http://10.1.2.3/hook'), 200);
  });
});

describe('private networks allowed for proxy rules only (WHARF_PROXY_ALLOWED_PRIVATE)', () => {
  let server: TestServer;
  let world: World;
  let internal: Awaited<ReturnType<typeof startInternalService>>;
  let port: number;

  beforeAll(async () => {
    internal = await startInternalService();
    server = await startTestServer({ env: { WHARF_PROXY_ALLOWED_PRIVATE: '127.0.0.0/8' } });
    port = Number(new URL(server.url).port);
    world = await buildWorld(server.url);
  });
  afterAll(async () => {
    await server.close();
    internal.server.close();
  });

  it('proxies to an address in a listed network, and sends no hook there', async () => {
    const { saveHook, saveProxyRule } = tenant(world);
    expectStatus(await saveProxyRule(`http://127.0.0.1:${internal.port}/`), 200);
    await expect
      .poll(async () => (await siteRequest(port, `${world.site.name}.localhost:${port}`, '/internal/x')).text)
      .toBe('internal service');

    const hook = await saveHook(`http://127.0.0.1:${internal.port}/hook`);
    expect(hook.status).toBe(400);
    expect(hook.body.code).toBe('UPSTREAM_NOT_ALLOWED');
  });
});

describe('allow-list settings', () => {
  it('names the variable and the entry it cannot read', () => {
    const load = (value: string) => () => loadConfig({ WHARF_PROXY_ALLOWED_PRIVATE: value });
    expect(load('jenkins.lan, 10.0.0.0/33')).toThrow(
      /WHARF_PROXY_ALLOWED_PRIVATE.*"10\.0\.0\.0\/33" is not a host name \(jenkins\.lan\), an address \(10\.0\.0\.7\) or a CIDR/,
    );
    expect(load('http://jenkins.lan')).toThrow(
      /WHARF_PROXY_ALLOWED_PRIVATE.*"http:\/\/jenkins\.lan" is not a host name/,
    );
    expect(() => loadConfig({ WHARF_HOOKS_ALLOWED_PRIVATE: 'mattermost.lan,fd00::/8,10.0.0.7' })).not.toThrow();
  });
});
