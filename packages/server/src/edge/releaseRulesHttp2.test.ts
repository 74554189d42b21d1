import { writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type http2 from 'node:http2';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorTlsEnv, testAuthority } from '../../test/certificates.ts';
import { freePort, startTestServer, type TestServer } from '../../test/harness.ts';
import { HOSTILE_PATH_INPUTS } from '../../test/hostileInput.ts';
import { http2Request, http2Session } from '../../test/httpsClient.ts';
import { buildWorld, uploadRelease } from '../../test/world.ts';

/** What an HTTP/2 client can put in `:path`: no raw bytes beyond ASCII, no spaces. */
const HOSTILE = HOSTILE_PATH_INPUTS.filter((input) => /^[\x21-\x7e]+$/.test(input));

describe('captures of _redirects and _headers over HTTP/2', () => {
  const authority = testAuthority();
  let dataDir: string;
  let server: TestServer;
  let session: http2.ClientHttp2Session;
  let siteHost: string;

  beforeAll(async () => {
    // The world is built over plain HTTP first: with HTTPS on, plain HTTP only redirects.
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'wharf-rules-h2-'));
    const plain = await startTestServer({ dataDir });
    const world = await buildWorld(plain.url);
    await uploadRelease(
      world.clients.owner,
      world.site._id,
      'h2 rules',
      ['main'],
      [
        { name: 'index.html', content: '<!doctype html><title>home</title>' },
        { name: '日本.txt', content: 'nihon' },
        { name: '_redirects', content: '/news/*  /blog/:splat  301\n/host/:sub  https://:sub.example.com/  302' },
        { name: '_headers', content: '/*\n  X-Asset: :splat' },
      ],
    );
    await plain.close();
    const siteName = world.site.name;
    const { cert, key } = authority.issue(['localhost', '*.sites.localhost']);
    writeFileSync(path.join(dataDir, 'ca.pem'), authority.ca);
    const httpsPort = await freePort();
    siteHost = `${siteName}.sites.localhost:${httpsPort}`;
    server = await startTestServer({ dataDir, env: operatorTlsEnv(dataDir, { chain: cert, key }, httpsPort) });
    session = await http2Session(httpsPort, `${siteName}.sites.localhost`, authority.ca);
  });
  afterAll(async () => {
    session?.close();
    await server?.close();
    await rm(dataDir, { recursive: true, force: true });
    authority.remove();
  });

  it('writes non-Latin-1 captures into Location and header values percent-encoded, never mangled', async () => {
    const moved = await http2Request(session, siteHost, '/news/%E6%97%A5%E6%9C%AC');
    expect([moved.status, moved.headers.location]).toEqual([301, '/blog/%E6%97%A5%E6%9C%AC']);
    const file = await http2Request(session, siteHost, '/%E6%97%A5%E6%9C%AC.txt');
    expect([file.status, file.text, file.headers['x-asset']]).toEqual([200, 'nihon', '%E6%97%A5%E6%9C%AC.txt']);
  });

  it('never answers 5xx, whatever the path holds', async () => {
    for (const prefix of ['/news/', '/host/', '/']) {
      for (const input of HOSTILE) {
        const answer = await http2Request(session, siteHost, `${prefix}${input}`);
        expect(answer.status, `${prefix}${input}`).toBeLessThan(500);
        const location = answer.headers.location;
        if (location !== undefined) expect(String(location), `${prefix}${input}`).toMatch(/^[\x21-\x7e]+$/);
      }
    }
  });
});
