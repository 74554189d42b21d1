import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, type TestClient } from '../../test/client.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { siteRequest } from '../../test/siteClient.ts';
import { buildWorld, type World } from '../../test/world.ts';

/** A real upstream on loopback, standing for a service on the server's own machine, that counts what reaches it. */
function startInternalService() {
  let requests = 0;
  let connections = 0;
  const server = http.createServer((_req, res) => {
    requests++;
    res.end('internal secrets');
  });
  server.on('connection', () => connections++);
  return new Promise<{ server: http.Server; port: number; reached: () => number }>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, port: (server.address() as AddressInfo).port, reached: () => requests + connections }),
    ),
  );
}

const REFUSED_AT_SAVE = [
  'http://127.0.0.1:8080',
  'http://localhost',
  'http://api.localhost/',
  'http://0.0.0.0/',
  'http://2130706433/',
  'http://0x7f.1/',
  'http://[::1]/',
  'http://[::ffff:127.0.0.1]/',
  'http://169.254.169.254/latest/meta-data/',
  'http://10.0.0.8/',
  'http://172.16.5.4/',
  'http://192.168.1.10/',
  'http://100.64.0.1/',
  'http://[fc00::1]/',
  'http://[fe80::1]/',
  'http://[64:ff9b::a00:1]/',
  'http://224.0.0.1/',
  'http://255.255.255.255/',
  'https://db.internal/',
  'http://redis:6379/',
];

describe('reverse-proxy rules and the outbound guard', () => {
  let server: TestServer;
  let internal: Awaited<ReturnType<typeof startInternalService>>;
  let world: World;
  let owner: TestClient;
  let port: number;
  let host: string;
  let redirectsPath: string;

  beforeAll(async () => {
    server = await startTestServer({ captureLog: true });
    internal = await startInternalService();
    port = Number(new URL(server.url).port);
    world = await buildWorld(server.url);
    owner = world.clients.owner;
    host = `${world.site.name}.localhost:${port}`;
    redirectsPath = `/api/v1/sites/${world.site._id}/branches/${world.site.mainBranch}/redirects`;
  });
  afterAll(async () => {
    await server.close();
    internal.server.close();
  });

  it.each(REFUSED_AT_SAVE)(
    'refuses to save a rule to %s, naming the rule, and keeps the rules as they were',
    async (url) => {
      const kept = [{ type: 'reverse_proxy', path: '/public/*', config: { url: 'https://api.example.com' } }];
      expectStatus(await owner.put(redirectsPath, { redirects: kept }), 200);
      const answer = await owner.put(redirectsPath, {
        redirects: [
          ...kept,
          { type: 'file', path: '/robots.txt', config: { content: 'x' } },
          { type: 'reverse_proxy', path: '/api/*', config: { url } },
        ],
      });
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe('UPSTREAM_NOT_ALLOWED');
      expect(answer.body.message).toMatch(/^redirects\.2\.config\.url: .*WHARF_ALLOW_PRIVATE_UPSTREAMS=on/);
      expect(answer.body.details).toEqual([{ field: 'redirects.2.config.url', message: expect.any(String) }]);
      expect(expectStatus(await owner.get(redirectsPath), 200)).toEqual(kept);
    },
  );

  it('names every refused rule of one save', async () => {
    const answer = await owner.put(redirectsPath, {
      redirects: [
        { type: 'reverse_proxy', path: '/a/*', config: { url: 'http://127.0.0.1/' } },
        { type: 'reverse_proxy', path: '/b/*', config: { url: 'https://api.example.com' } },
        { type: 'reverse_proxy', path: '/c/*', config: { url: 'http://[::1]/' } },
      ],
    });
    expect(answer.body.details.map((problem: { field: string }) => problem.field)).toEqual([
      'redirects.0.config.url',
      'redirects.2.config.url',
    ]);
  });

  it('refuses to connect to a refused address that reached the database anyway, and the upstream gets nothing', async () => {
    // Rules the save check never saw: saved before the guard existed, or a name that resolved to a
    // public address when saved and resolves to loopback now (DNS rebinding), as `localhost` does
    // here. Written straight into the row, then loaded as any change would be.
    const rules = [
      { type: 'reverse_proxy', path: '/literal/*', config: { url: `http://127.0.0.1:${internal.port}/` } },
      { type: 'reverse_proxy', path: '/number/*', config: { url: `http://2130706433:${internal.port}/` } },
      { type: 'reverse_proxy', path: '/mapped/*', config: { url: `http://[::ffff:127.0.0.1]:${internal.port}/` } },
      { type: 'reverse_proxy', path: '/rebound/*', config: { url: `http://localhost:${internal.port}/` } },
    ];
    await server.app.db
      .updateTable('branches')
      .set({ redirects: JSON.stringify(rules) })
      .where('id', '=', world.site.mainBranch)
      .execute();
    await server.edge.table.reloadSites(server.app.db, [world.site._id]);
    for (const prefix of ['literal', 'number', 'mapped', 'rebound']) {
      const answer = await siteRequest(port, host, `/${prefix}/secrets`, { method: 'POST', body: 'payload' });
      expect(answer.status, prefix).toBe(502);
      expect(answer.text).toContain('Bad gateway');
      expect(answer.text).not.toContain('internal secrets');
    }
    expect(internal.reached()).toBe(0);
    const refusals = server.logLines.filter((line) => line.includes('outbound connection refused'));
    expect(refusals.some((line) => line.includes('"host":"localhost"') && line.includes('"address":"127.0.0.1"'))).toBe(
      true,
    );
    expect(refusals.some((line) => line.includes('"host":"127.0.0.1"'))).toBe(true);
  });
});

describe('reverse-proxy rules with WHARF_ALLOW_PRIVATE_UPSTREAMS=on', () => {
  let server: TestServer;
  let internal: Awaited<ReturnType<typeof startInternalService>>;

  beforeAll(async () => {
    server = await startTestServer({ env: { WHARF_ALLOW_PRIVATE_UPSTREAMS: 'on' } });
    internal = await startInternalService();
  });
  afterAll(async () => {
    await server.close();
    internal.server.close();
  });

  it('saves and proxies to the network of the operator', async () => {
    const world = await buildWorld(server.url);
    const port = Number(new URL(server.url).port);
    const redirects = [
      { type: 'reverse_proxy', path: '/api/*', config: { url: `http://localhost:${internal.port}/` } },
    ];
    const path = `/api/v1/sites/${world.site._id}/branches/${world.site.mainBranch}/redirects`;
    expectStatus(await world.clients.owner.put(path, { redirects }), 200);
    const answer = await siteRequest(port, `${world.site.name}.localhost:${port}`, '/api/x');
    expect(answer.text).toBe('internal secrets');
  });
});
