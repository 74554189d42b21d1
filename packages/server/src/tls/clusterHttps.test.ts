import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorTlsEnv, testAuthority } from '../../test/certificates.ts';
import { freePort, startTestServer } from '../../test/harness.ts';
import {
  eventually,
  http2Request,
  http2Session,
  httpsGet,
  stapled,
  upgradeStatusLine,
} from '../../test/httpsClient.ts';
import { acmeEnv, type Pebble, startPebble } from '../../test/pebble.ts';
import { siteGet, startWharf, stopWharf, type WharfProcess } from '../../test/processes.ts';
import { buildWorld } from '../../test/world.ts';

describe('HTTPS in a cluster (WHARF_WORKERS=2)', () => {
  const authority = testAuthority();
  let dataDir: string;
  let wharf: WharfProcess;
  let port: number;
  let httpsPort: number;
  let siteName: string;
  let responder: ChildProcess;

  beforeAll(async () => {
    // The world is built over plain HTTP first: with HTTPS on, plain HTTP only redirects.
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'wharf-cluster-https-'));
    const plain = await startTestServer({ dataDir });
    siteName = (await buildWorld(plain.url, ['main', 'preview'])).site.name;
    await plain.close();
    // The certificate names an OCSP responder: every worker staples its answer.
    const ocspPort = await freePort();
    const { cert, key } = authority.issue(['localhost', '*.sites.localhost', `*.${siteName}.sites.localhost`], {
      ocspUrl: `http://127.0.0.1:${ocspPort}`,
    });
    responder = await authority.startOcspResponder(ocspPort);
    port = await freePort();
    httpsPort = await freePort();
    wharf = await startWharf(dataDir, port, {
      WHARF_WORKERS: '2',
      ...operatorTlsEnv(dataDir, { chain: cert + authority.ca, key }, httpsPort),
    });
    // The health checks stay on plain HTTP: 200 once the workers serve. A loaded machine takes
    // tens of seconds to bundle, start and fork (ci22: not listening after 30 s at a load of 14).
    await eventually(
      () => siteGet(port, 'localhost', '/readyz'),
      (answer) => answer.status === 200,
      120_000,
    ).catch((error) => {
      throw new Error(
        `${error.message}; Wharf ${wharf.child.exitCode === null ? 'runs' : 'exited'}: ${wharf.stderr()}`,
      );
    });
  }, 180_000);
  afterAll(async () => {
    responder?.kill();
    if (wharf) await stopWharf(wharf);
    await rm(dataDir, { recursive: true, force: true });
    authority.remove();
  });

  it("serves a site's branch and the console over HTTPS from every worker", async () => {
    const host = `preview.${siteName}.sites.localhost`;
    // Each request on a connection of its own: the cluster hands connections to the workers in turn.
    const answers = await Promise.all(Array.from({ length: 6 }, () => httpsGet(httpsPort, host, authority.ca)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(6).fill(200));
    for (const answer of answers) {
      expect(answer.text).toContain('Hello from Wharf');
      expect(answer.headers['strict-transport-security']).toBe('max-age=31536000');
    }
    // The console's API goes on from a worker to the primary.
    const api = await httpsGet(httpsPort, 'localhost', authority.ca, '/api/v1/system/info');
    expect(api.status).toBe(200);
    expect(api.headers['strict-transport-security']).toBe('max-age=31536000');
    const redirect = await siteGet(port, `${host}:${port}`, '/app.js');
    expect(redirect.status).toBe(308);
    expect(wharf.stderr()).toBe('');
  });

  it('speaks HTTP/2 from the workers: a site by :authority, and the console API (a request body too) in the worker that took the stream', async () => {
    const siteHost = `preview.${siteName}.sites.localhost`;
    const sessions = await Promise.all(
      Array.from({ length: 4 }, () => http2Session(httpsPort, siteHost, authority.ca)),
    );
    try {
      for (const session of sessions) {
        expect(session.alpnProtocol).toBe('h2');
        const page = await http2Request(session, `${siteHost}:${httpsPort}`, '/');
        expect(page.status).toBe(200);
        expect(page.text).toContain('Hello from Wharf');
        const range = await http2Request(session, `${siteHost}:${httpsPort}`, '/app.js', {
          headers: { range: 'bytes=0-6' },
        });
        expect([range.status, range.text]).toEqual([206, 'console']);
      }
    } finally {
      for (const session of sessions) session.close();
    }
    const console = await http2Session(httpsPort, 'localhost', authority.ca);
    try {
      const info = await http2Request(console, `localhost:${httpsPort}`, '/api/v1/system/info');
      expect(info.status).toBe(200);
      expect(info.headers['strict-transport-security']).toBe('max-age=31536000');
      // Real-time sockets are WebSockets only (HTTP/1.1): polling's requests could reach any worker.
      const polling = await http2Request(console, `localhost:${httpsPort}`, '/socket.io/?EIO=4&transport=polling');
      expect(polling.status).toBe(400);
      // A request body, read by the worker that took the stream: the first admin signs in.
      const firstStart = wharf
        .stdout()
        .split('\n')
        .find((line) => line.includes('First start'));
      const { password } = JSON.parse(firstStart!) as { password: string };
      const signIn = await http2Request(console, `localhost:${httpsPort}`, '/auth/in-memory', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ user: 'admin', password }),
      });
      expect(signIn.status).toBe(200);
      expect(String(signIn.headers['set-cookie'])).toContain('wharf_session=');
    } finally {
      console.close();
    }
    // WebSockets stay on HTTP/1.1: the upgrade goes from the worker to the primary's socket.io.
    const upgrade = await upgradeStatusLine(
      httpsPort,
      'localhost',
      authority.ca,
      '/socket.io/?EIO=4&transport=websocket',
    );
    expect(upgrade).toBe('HTTP/1.1 101 Switching Protocols');
    expect(wharf.stderr()).toBe('');
  });

  it("staples the responder's answer from every worker", async () => {
    // Each connection of its own: the cluster hands them to the workers in turn, each fetches once.
    const responses = await eventually(
      () => Promise.all(Array.from({ length: 4 }, () => stapled(httpsPort, 'localhost', authority.ca))),
      (all) => all.every((response) => response !== null),
    );
    expect(responses.every((response) => response && response.length > 0)).toBe(true);
  });
});

describe('certificates obtained over ACME in a cluster (WHARF_WORKERS=2, pebble)', () => {
  let dataDir: string;
  let pebble: Pebble;
  let wharf: WharfProcess;
  let httpsPort: number;
  let siteName: string;
  let root: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'wharf-cluster-acme-'));
    const plain = await startTestServer({ dataDir });
    siteName = (await buildWorld(plain.url, ['main', 'preview'])).site.name;
    await plain.close();
    const port = await freePort();
    pebble = await startPebble({ httpPort: port });
    root = await pebble.issuedRoot();
    httpsPort = await freePort();
    // As an operator would start it: no certificate of its own, only an ACME directory.
    wharf = await startWharf(dataDir, port, {
      WHARF_WORKERS: '2',
      ...acmeEnv(pebble, httpsPort),
    });
    await eventually(
      () => siteGet(port, 'console.wharf.test', '/readyz'),
      (answer) => answer.status === 200,
      30_000,
    );
  }, 60_000);
  afterAll(async () => {
    if (wharf) await stopWharf(wharf);
    await pebble?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('orders one certificate for a branch host however many workers are asked at once, and serves it from each', async () => {
    const host = `preview.${siteName}.sites.wharf.test`;
    // Connections of their own reach both workers: one orders, the other waits for its row.
    const withLog = (error: Error) => {
      throw new Error(`${error.message}\nWharf's log:\n${wharf.stdout()}${wharf.stderr()}`);
    };
    const answers = await Promise.all(Array.from({ length: 6 }, () => httpsGet(httpsPort, host, root))).catch(withLog);
    expect(answers.map((answer) => answer.status)).toEqual(Array(6).fill(200));
    expect(new Set(answers.map((answer) => answer.certificate.serialNumber)).size).toBe(1);
    expect(answers[0]?.text).toContain('Hello from Wharf');
    const api = await httpsGet(httpsPort, 'console.wharf.test', root, '/api/v1/system/info').catch(withLog);
    expect(api.status).toBe(200);
    expect(api.certificate.subjectaltname).toBe('DNS:console.wharf.test');
    expect(wharf.stderr()).toBe('');
  });
});
