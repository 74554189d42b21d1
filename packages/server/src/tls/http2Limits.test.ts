import { mkdtemp, rm } from 'node:fs/promises';
import type http2 from 'node:http2';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorTlsEnv, testAuthority } from '../../test/certificates.ts';
import { freePort, startTestServer, type TestServer } from '../../test/harness.ts';
import { cancel, getRequest, REFUSED_STREAM, sendFrames } from '../../test/http2Frames.ts';
import { http2Request, http2Session } from '../../test/httpsClient.ts';
import { buildWorld, uploadRelease } from '../../test/world.ts';

/** Settings identifiers of RFC 9113 §6.5.2. */
const MAX_CONCURRENT_STREAMS = 0x3;
const MAX_HEADER_LIST_SIZE = 0x6;
const INTERNAL_ERROR = 0x2;

/** Client stream ids are odd: the nth stream of a connection. */
const streamId = (n: number) => 2 * n + 1;

describe('one HTTP/2 connection cannot exhaust the server', () => {
  const authority = testAuthority();
  let dataDir: string;
  let server: TestServer;
  let httpsPort: number;
  let siteName: string;
  let siteHost: string;

  beforeAll(async () => {
    // The site is made over plain HTTP first: with HTTPS on, plain HTTP only redirects.
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'wharf-http2-limits-'));
    const plain = await startTestServer({ dataDir });
    const world = await buildWorld(plain.url);
    await uploadRelease(
      world.clients.owner,
      world.site._id,
      'limits',
      ['main'],
      [{ name: 'index.html', content: `<!doctype html><p>${'a page '.repeat(2000)}</p>` }],
    );
    await plain.close();
    siteName = world.site.name;
    const { cert, key } = authority.issue(['localhost', '*.sites.localhost']);
    httpsPort = await freePort();
    siteHost = `${siteName}.sites.localhost:${httpsPort}`;
    server = await startTestServer({ dataDir, env: operatorTlsEnv(dataDir, { chain: cert, key }, httpsPort) });
  });
  afterAll(async () => {
    await server?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    authority.remove();
  });

  /**
   * Sends `frames` and collects the answer until the server closes the connection, `until` holds, or
   * `forMs` passed: a deadline, long for a busy machine, that a test waiting on the server's close
   * never reaches when all is well.
   */
  const flood = (frames: Buffer[], forMs = 20_000, until?: Parameters<typeof sendFrames>[5]) =>
    sendFrames(httpsPort, `${siteName}.sites.localhost`, authority.ca, frames, forMs, until);

  it('announces 128 concurrent streams and 32 KB of headers, and refuses the streams past them', async () => {
    const frames = Array.from({ length: 1_000 }, (_, n) => getRequest(streamId(n), siteHost, '/'));
    const received = await flood(frames);
    expect(received.settings.get(MAX_CONCURRENT_STREAMS)).toBe(128);
    expect(received.settings.get(MAX_HEADER_LIST_SIZE)).toBe(32 * 1024);
    expect(received.answered.size).toBeLessThanOrEqual(128);
    const refused = [...received.reset.values()].filter((code) => code === REFUSED_STREAM).length;
    // Refused one by one, then the connection is closed once it keeps asking.
    expect(refused).toBeGreaterThan(0);
    expect(received.closed).toBe(true);
  });

  it('stays within bounded memory when one connection asks for 5,000 streams and reads nothing', async () => {
    const before = process.memoryUsage().rss;
    const frames = Array.from({ length: 5_000 }, (_, n) => getRequest(streamId(n), siteHost, '/'));
    const received = await flood(frames, 10_000);
    const grown = process.memoryUsage().rss - before;
    expect(received.answered.size).toBeLessThanOrEqual(128);
    // Without the limits: 2,106 answered in 10 s and 60 MB more; with them, a few MB.
    expect(grown).toBeLessThan(24 * 1024 * 1024);
  });

  it('closes a connection that opens and cancels streams in a burst (rapid reset)', async () => {
    const frames = Array.from({ length: 3_000 }, (_, n) => [
      getRequest(streamId(n), siteHost, '/'),
      cancel(streamId(n)),
    ]);
    const received = await flood(frames.flat());
    // nghttp2 counts the resets itself and ends the session with INTERNAL_ERROR.
    expect(received.goaway).toBe(INTERNAL_ERROR);
    expect(received.closed).toBe(true);
  });

  it('refuses a stream whose headers are over 32 KB', async () => {
    const received = await flood(
      [getRequest(1, siteHost, '/', [['x-large', 'x'.repeat(40 * 1024)]])],
      20_000,
      (sent) => sent.reset.has(1) || sent.goaway !== null,
    );
    expect(received.answered.has(1)).toBe(false);
    expect(received.reset.has(1) || received.goaway !== null).toBe(true);
  });

  describe('with a Host header beside :authority', () => {
    let session: http2.ClientHttp2Session;
    beforeAll(async () => {
      session = await http2Session(httpsPort, `${siteName}.sites.localhost`, authority.ca);
    });
    afterAll(() => session?.close());

    it('answers 400 when they name different hosts', async () => {
      const answer = await http2Request(session, siteHost, '/', {
        headers: { host: `other.sites.localhost:${httpsPort}` },
      });
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.text)).toMatchObject({ code: 'HOST_INVALID' });
    });

    it('serves the request when they name the same host', async () => {
      const answer = await http2Request(session, siteHost, '/', { headers: { host: siteHost.toUpperCase() } });
      expect(answer.status).toBe(200);
    });
  });

  it('still serves a well-behaved client afterwards', async () => {
    await sleep(100);
    const session = await http2Session(httpsPort, `${siteName}.sites.localhost`, authority.ca);
    try {
      const answers = await Promise.all(Array.from({ length: 300 }, () => http2Request(session, siteHost, '/')));
      expect(answers.every((answer) => answer.status === 200)).toBe(true);
    } finally {
      session.close();
    }
  });
});
