import { writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testAuthority } from '../../test/certificates.ts';
import { freePort, startTestServer, type TestServer } from '../../test/harness.ts';
import { eventually, httpsGet, upgradeStatusLine } from '../../test/httpsClient.ts';
import { wholeBody } from '../../test/wholeAnswer.ts';
import { buildWorld } from '../../test/world.ts';

/** A plain HTTP request on the HTTP port, redirects not followed. */
function plainGet(port: number, host: string, urlPath: string) {
  return new Promise<{ status: number; location?: string }>((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: urlPath, headers: { host }, agent: false }, (res) => {
        wholeBody(res).then(() => resolve({ status: res.statusCode ?? 0, location: res.headers.location }), reject);
      })
      .on('error', reject);
  });
}

/** Whether a TLS handshake with these options completes (the error when it does not). */
function handshake(port: number, options: tls.ConnectionOptions) {
  return new Promise<{ ok: true; reused: boolean } | { ok: false; error: Error }>((resolve) => {
    const socket = tls.connect({ host: '127.0.0.1', port, ...options }, () => {
      resolve({ ok: true, reused: socket.isSessionReused() });
      socket.end();
    });
    socket.on('error', (error) => resolve({ ok: false, error }));
  });
}

describe('HTTPS with the operator certificate (WHARF_HTTPS_PORT, WHARF_TLS_CERT, WHARF_TLS_KEY)', () => {
  const authority = testAuthority();
  let dataDir: string;
  let server: TestServer;
  let port: number;
  let httpsPort: number;
  let siteName: string;
  let certFile: string;
  let keyFile: string;
  let firstSerial: string;

  beforeAll(async () => {
    // The world is built over plain HTTP first: with HTTPS on, plain HTTP only redirects.
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'wharf-https-'));
    const plain = await startTestServer({ dataDir });
    siteName = (await buildWorld(plain.url, ['main', 'preview'])).site.name;
    await plain.close();

    const names = ['localhost', '*.sites.localhost', `*.${siteName}.sites.localhost`];
    const first = authority.issue(names);
    firstSerial = first.serial;
    certFile = path.join(dataDir, 'tls.crt');
    keyFile = path.join(dataDir, 'tls.key');
    writeFileSync(certFile, first.cert);
    writeFileSync(keyFile, first.key);
    httpsPort = await freePort();
    server = await startTestServer({
      dataDir,
      captureLog: true,
      env: {
        WHARF_HTTPS_PORT: String(httpsPort),
        WHARF_TLS_CERT: certFile,
        WHARF_TLS_KEY: keyFile,
        WHARF_URL: `https://localhost:${httpsPort}`,
        WHARF_SITES_URL: `https://sites.localhost:${httpsPort}`,
      },
    });
    port = Number(new URL(server.url).port);
  });
  afterAll(async () => {
    await server?.close();
    await rm(dataDir, { recursive: true, force: true });
    authority.remove();
  });

  it('serves the console and the API over HTTPS, with HSTS', async () => {
    const answer = await httpsGet(httpsPort, 'localhost', authority.ca, '/api/v1/system/info');
    expect(answer.status).toBe(200);
    expect(answer.headers['strict-transport-security']).toBe('max-age=31536000');
    expect(answer.certificate.serialNumber).toBe(firstSerial);
  });

  it("serves a site's branch over HTTPS, with HSTS", async () => {
    const branch = await httpsGet(httpsPort, `preview.${siteName}.sites.localhost`, authority.ca);
    expect(branch.status).toBe(200);
    expect(branch.text).toContain('Hello from Wharf');
    expect(branch.headers['strict-transport-security']).toBe('max-age=31536000');
    expect((await httpsGet(httpsPort, `${siteName}.sites.localhost`, authority.ca)).text).toContain('Hello from Wharf');
  });

  it("carries HSTS on every answer of a site, the file's own and the edge's", async () => {
    const host = `${siteName}.sites.localhost`;
    const page = await httpsGet(httpsPort, host, authority.ca);
    const answers = {
      unchanged: await httpsGet(httpsPort, host, authority.ca, '/', {
        headers: { host, 'if-none-match': page.headers.etag! },
      }),
      missingFile: await httpsGet(httpsPort, host, authority.ca, '/no-such-file'),
      missingBranch: await httpsGet(httpsPort, `nope.${host}`, authority.ca),
      badPath: await httpsGet(httpsPort, host, authority.ca, '/%2e%2e/%00'),
    };
    expect(Object.values(answers).map((answer) => answer.status)).toEqual([304, 404, 404, 400]);
    for (const answer of Object.values(answers))
      expect(answer.headers['strict-transport-security']).toBe('max-age=31536000');
  });

  it('reaches the real-time socket server over HTTPS: its WebSocket upgrade, and no polling', async () => {
    const upgrade = await upgradeStatusLine(
      httpsPort,
      'localhost',
      authority.ca,
      '/socket.io/?EIO=4&transport=websocket',
    );
    expect(upgrade).toBe('HTTP/1.1 101 Switching Protocols');
    // Polling's requests of one session could reach processes that never saw its handshake.
    const polling = await httpsGet(httpsPort, 'localhost', authority.ca, '/socket.io/?EIO=4&transport=polling');
    expect(polling.status).toBe(400);
  });

  it('refuses the handshake for a name no certificate covers, and without a name', async () => {
    const unknown = await handshake(httpsPort, { servername: 'example.com', ca: authority.ca });
    expect(unknown.ok).toBe(false);
    // Two levels under a wildcard are not covered either.
    const deep = await handshake(httpsPort, { servername: 'a.b.sites.localhost', ca: authority.ca });
    expect(deep.ok).toBe(false);
    const nameless = await handshake(httpsPort, { ca: authority.ca, checkServerIdentity: () => undefined });
    expect(nameless.ok).toBe(false);
  });

  it('refuses TLS 1.1', async () => {
    const old = await handshake(httpsPort, {
      servername: 'localhost',
      ca: authority.ca,
      minVersion: 'TLSv1.1',
      maxVersion: 'TLSv1.1',
      // The client's own OpenSSL would refuse TLS 1.1 at its default security level.
      ciphers: 'DEFAULT@SECLEVEL=0',
    });
    // The server's alert, not the client's own refusal.
    expect(old.ok ? null : (old.error as NodeJS.ErrnoException).code).toBe('ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION');
    const modern = await handshake(httpsPort, { servername: 'localhost', ca: authority.ca, maxVersion: 'TLSv1.2' });
    expect(modern.ok).toBe(true);
  });

  it('resumes a session with its ticket', async () => {
    const session = await new Promise<Buffer>((resolve, reject) => {
      const socket = tls.connect({ host: '127.0.0.1', port: httpsPort, servername: 'localhost', ca: authority.ca });
      socket.once('session', (ticket: Buffer) => {
        resolve(ticket);
        socket.end();
      });
      socket.on('error', reject);
    });
    const again = await handshake(httpsPort, { servername: 'localhost', ca: authority.ca, session });
    expect(again).toEqual({ ok: true, reused: true });
  });

  it('redirects plain HTTP to HTTPS with a 308, except ACME challenges and health checks', async () => {
    expect(await plainGet(port, `localhost:${port}`, '/sites/x?tab=1')).toEqual({
      status: 308,
      location: `https://localhost:${httpsPort}/sites/x?tab=1`,
    });
    expect(await plainGet(port, `preview.${siteName}.sites.localhost:${port}`, '/app.js')).toEqual({
      status: 308,
      location: `https://preview.${siteName}.sites.localhost:${httpsPort}/app.js`,
    });
    const challenge = await plainGet(port, `${siteName}.sites.localhost`, '/.well-known/acme-challenge/token');
    expect(challenge.status).not.toBe(308);
    expect((await plainGet(port, 'localhost', '/healthz')).status).toBe(200);
    // 503 here: the test harness never marks the process serving; what matters is that it answers.
    expect((await plainGet(port, 'localhost', '/readyz')).status).toBe(503);
  });

  it('serves a replaced certificate to new connections without a restart, and keeps it when the new files are bad', async () => {
    writeFileSync(certFile, 'not a certificate');
    await eventually(
      async () => server.logLines.join('\n'),
      (log) => log.includes('could not be used'),
    );
    expect((await httpsGet(httpsPort, 'localhost', authority.ca)).certificate.serialNumber).toBe(firstSerial);

    const next = authority.issue(['localhost', '*.sites.localhost', `*.${siteName}.sites.localhost`]);
    writeFileSync(keyFile, next.key);
    writeFileSync(certFile, next.cert);
    const answer = await eventually(
      () => httpsGet(httpsPort, `preview.${siteName}.sites.localhost`, authority.ca),
      (served) => served.certificate.serialNumber === next.serial,
    );
    expect(answer.text).toContain('Hello from Wharf');
  });
});
