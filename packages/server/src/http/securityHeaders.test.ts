import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../../test/client.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';

const CONSOLE_PAGE = `<!doctype html><html><head>
<meta property="csp-nonce" nonce="WHARF_CSP_NONCE">
<script type="module" src="/assets/app.js" nonce="WHARF_CSP_NONCE"></script>
</head><body><div id="root"></div></body></html>`;

function policyOf(headers: Headers) {
  const policy = new Map<string, string[]>();
  for (const directive of (headers.get('content-security-policy') ?? '').split(';')) {
    const [name, ...sources] = directive.trim().split(/\s+/);
    if (name) policy.set(name, sources);
  }
  return policy;
}

describe('security headers of the console and the API', () => {
  let server: TestServer;
  let consoleDir: string;
  beforeAll(async () => {
    consoleDir = await mkdtemp(path.join(os.tmpdir(), 'wharf-console-'));
    await writeFile(path.join(consoleDir, 'index.html'), CONSOLE_PAGE);
    server = await startTestServer({ consoleDir, env: { WHARF_CRASH_REPORT_DSN: 'https://key@crashes.example/7' } });
  });
  afterAll(async () => {
    await server.close();
    await rm(consoleDir, { recursive: true, force: true });
  });

  it('forbid framing, sniffing and referrers on every kind of answer, errors included', async () => {
    const client = new TestClient(server.url);
    for (const answer of [
      await client.get('/'),
      await client.get('/api/v1/system/info'),
      await client.get('/api/v1/user'),
      await client.get('/api/v1/no-such-route'),
      await client.post('/auth/in-memory', { user: 'x' }),
    ]) {
      expect(answer.headers.get('x-frame-options')).toBe('DENY');
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      expect(answer.headers.get('referrer-policy')).toBe('same-origin');
      const policy = policyOf(answer.headers);
      expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
      expect(policy.get('script-src')).toEqual(["'self'"]);
      expect(policy.get('object-src')).toEqual(["'none'"]);
    }
  });

  it('give each console page a fresh style nonce, the same in its policy and in its meta tag', async () => {
    const client = new TestClient(server.url);
    const nonces = new Set<string>();
    for (const pathname of ['/', '/sites/abc/branches', '/login']) {
      const answer = await client.get(pathname);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('cache-control')).toBe('private, no-cache');
      const styleSources = policyOf(answer.headers).get('style-src') ?? [];
      const nonce = /^'nonce-(.+)'$/.exec(styleSources.find((source) => source.startsWith("'nonce-")) ?? '')?.[1];
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      expect(answer.body).toContain(`<meta property="csp-nonce" nonce="${nonce}">`);
      expect(answer.body).not.toContain('WHARF_CSP_NONCE');
      nonces.add(nonce!);
    }
    expect(nonces.size).toBe(3);
  });

  it('make a nonce only for console pages: the API answers with the same policy, no nonce in it', async () => {
    const client = new TestClient(server.url);
    for (const answer of [await client.get('/api/v1/system/info'), await client.get('/api/v1/user')]) {
      const policy = policyOf(answer.headers);
      expect(policy.get('style-src')).toEqual(["'self'", "'report-sample'"]);
      expect(policy.get('connect-src')).toEqual(policyOf((await client.get('/')).headers).get('connect-src'));
    }
  });

  it('let the console connect only to its own origin, its socket and the crash-report collector', async () => {
    const policy = policyOf((await new TestClient(server.url).get('/')).headers);
    const origin = new URL(server.url);
    expect(policy.get('connect-src')).toEqual(["'self'", `ws://${origin.host}`, 'https://crashes.example']);
  });

  it('run the API reference from files only, no inline script', async () => {
    const client = new TestClient(server.url);
    const page = await client.get('/api/docs/');
    expect(page.body).not.toMatch(/<script>(?!<\/script>)/);
    expect(page.body).toContain('<script src="/api/docs/start.js"></script>');
    const start = await client.get('/api/docs/start.js');
    expect(start.status).toBe(200);
    expect(start.body).toContain('SwaggerUIBundle');
  });
});
