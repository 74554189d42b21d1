import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testAuthority } from '../../test/certificates.ts';
import { wholeBody } from '../../test/wholeAnswer.ts';
import { OutboundGuard, OutboundRefused } from './guard.ts';
import { emptyAllowList, parsePrivateAllowList } from './privateAllowList.ts';

/** A real server on loopback that counts the connections that reach it. */
function startCountingServer() {
  const server = http.createServer((_req, res) => res.end('reached'));
  let connections = 0;
  server.on('connection', () => connections++);
  return new Promise<{ server: http.Server; port: number; connections: () => number }>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, port: (server.address() as AddressInfo).port, connections: () => connections }),
    ),
  );
}

function guardWithLog(
  allowPrivate: boolean,
  allowList = emptyAllowList('WHARF_PROXY_ALLOWED_PRIVATE'),
  extraCaCerts: string[] = [],
) {
  const warnings: Record<string, unknown>[] = [];
  const log = { warn: (details: Record<string, unknown>) => void warnings.push(details) };
  const guard = new OutboundGuard({ allowPrivate, allowList, log, extraCaCerts });
  return { guard, warnings };
}

/** Sends a GET through the guard's agent: the body on success, the error otherwise. */
function fetchThrough(guard: OutboundGuard, target: string, options: http.RequestOptions = {}) {
  const url = new URL(target);
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<string | Error>((resolve) => {
    const request = client.get(url, { agent: guard.agentFor(url), ...options }, (res) => {
      wholeBody(res).then((body) => resolve(body.toString()), resolve);
    });
    request.on('error', resolve);
  });
}

describe("the outbound guard's TLS", () => {
  it("trusts an upstream signed by the operator's own CA only with WHARF_EXTRA_CA_CERTS, and says why otherwise", async () => {
    const authority = testAuthority();
    const server = https.createServer(authority.issue(['127.0.0.1']), (_req, res) => res.end('reached'));
    authority.remove();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const without = guardWithLog(true);
    const withCa = guardWithLog(true, undefined, [authority.ca]);
    try {
      expect(await fetchThrough(without.guard, url)).toMatchObject({ code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' });
      expect(await fetchThrough(withCa.guard, url)).toBe('reached');
      // Node's own roots still count beside the operator's.
      expect(withCa.guard.httpsAgent.options.ca).toEqual(
        expect.arrayContaining([...tls.rootCertificates, authority.ca]),
      );
    } finally {
      without.guard.close();
      withCa.guard.close();
      server.close();
    }
  });
});

describe('the outbound guard', () => {
  let upstream: Awaited<ReturnType<typeof startCountingServer>>;
  const guarded = guardWithLog(false);
  const open = guardWithLog(true);

  beforeAll(async () => {
    upstream = await startCountingServer();
  });
  afterAll(() => {
    guarded.guard.close();
    open.guard.close();
    upstream.server.close();
  });

  it('refuses loopback written as an address, before any connection is opened', async () => {
    for (const host of ['127.0.0.1', '[::1]', '[::ffff:127.0.0.1]', '2130706433', '0x7f.1']) {
      const answer = await fetchThrough(guarded.guard, `http://${host}:${upstream.port}/`);
      expect(answer, host).toBeInstanceOf(OutboundRefused);
    }
    expect(upstream.connections()).toBe(0);
  });

  it('refuses a name once it resolves to loopback, over http and https, before connecting', async () => {
    for (const target of [`http://localhost:${upstream.port}/`, `https://localhost:${upstream.port}/`]) {
      const answer = await fetchThrough(guarded.guard, target);
      expect(answer, target).toBeInstanceOf(OutboundRefused);
      expect((answer as OutboundRefused).host).toBe('localhost');
    }
    expect(upstream.connections()).toBe(0);
  });

  it('refuses a local socket path', async () => {
    const answer = await fetchThrough(guarded.guard, 'http://example.com/', { socketPath: '/tmp/wharf-absent.sock' });
    expect(answer).toBeInstanceOf(OutboundRefused);
    expect(upstream.connections()).toBe(0);
  });

  it('logs each refusal with the host, the address and its range', () => {
    expect(guarded.warnings).toContainEqual({ host: 'localhost', address: '127.0.0.1', range: 'a loopback address' });
    expect(guarded.warnings).toContainEqual({ host: '::1', address: '::1', range: 'a loopback address' });
  });

  it('lets everything through when the operator allows private upstreams', async () => {
    expect(await fetchThrough(open.guard, `http://127.0.0.1:${upstream.port}/`)).toBe('reached');
    expect(await fetchThrough(open.guard, `http://localhost:${upstream.port}/`)).toBe('reached');
    expect(open.warnings).toEqual([]);
  });

  it('refuses names that only mean the local network when a URL is saved, without asking DNS', () => {
    const saved = (url: string) => guarded.guard.problemWithUrl(url);
    expect(saved('http://LOCALHOST./')).toMatch(/^localhost names the server's own machine/);
    expect(saved('http://api.localhost/')).toMatch(/names the server's own machine/);
    expect(saved('http://printer.local/')).toMatch(/names the server's own machine/);
    expect(saved('http://db.internal/')).toMatch(/names the server's own machine/);
    expect(saved('http://router.home.arpa/')).toMatch(/names the server's own machine/);
    expect(saved('http://postgres:5432/')).toMatch(/^postgres is a local name/);
    expect(saved('http://2130706433/')).toMatch(
      /^127\.0\.0\.1 is a loopback address; .*WHARF_ALLOW_PRIVATE_UPSTREAMS=on/,
    );
    expect(saved('https://api.example.com/v1')).toBeNull();
    expect(saved('http://[2606:4700:4700::1111]/')).toBeNull();
    expect(open.guard.problemWithUrl('http://127.0.0.1:8080/')).toBeNull();
  });
});

describe('the outbound guard with an allow-list', () => {
  let upstream: Awaited<ReturnType<typeof startCountingServer>>;
  const byName = guardWithLog(false, parsePrivateAllowList('WHARF_HOOKS_ALLOWED_PRIVATE', 'localhost'));
  const byNetwork = guardWithLog(false, parsePrivateAllowList('WHARF_HOOKS_ALLOWED_PRIVATE', '127.0.0.0/8'));

  beforeAll(async () => {
    upstream = await startCountingServer();
  });
  afterAll(() => {
    byName.guard.close();
    byNetwork.guard.close();
    upstream.server.close();
  });

  it('lets a listed name reach the private address it resolves to, and not that address written out', async () => {
    expect(await fetchThrough(byName.guard, `http://localhost:${upstream.port}/`)).toBe('reached');
    const literal = await fetchThrough(byName.guard, `http://127.0.0.1:${upstream.port}/`);
    expect(literal).toBeInstanceOf(OutboundRefused);
    expect(byName.guard.problemWithUrl('http://LocalHost./hook')).toBeNull();
    expect(byName.guard.problemWithUrl('http://127.0.0.1/hook')).toMatch(/WHARF_HOOKS_ALLOWED_PRIVATE/);
  });

  it('lets any name reach an address of a listed network: the address connected to decides', async () => {
    expect(await fetchThrough(byNetwork.guard, `http://127.0.0.1:${upstream.port}/`)).toBe('reached');
    expect(await fetchThrough(byNetwork.guard, `http://[::ffff:127.0.0.1]:${upstream.port}/`)).toBe('reached');
    expect(await fetchThrough(byNetwork.guard, `http://localhost:${upstream.port}/`)).toBe('reached');
    expect(byNetwork.guard.problemWithUrl('http://127.0.0.2/')).toBeNull();
    expect(byNetwork.guard.problemWithUrl('http://10.0.0.1/')).toMatch(/^10\.0\.0\.1 is a private address/);
  });
});
