import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sha256 } from '../../../../test/archives.ts';
import { signedIn } from '../../../../test/client.ts';
import { databases, startTestServer, type TestServer, withPg } from '../../../../test/harness.ts';
import { siteRequest } from '../../../../test/siteClient.ts';
import { buildWorld, uploadRelease, type World } from '../../../../test/world.ts';
import { randomString } from '../../../lib/ids.ts';

const SMALL_JS = `export const greeting = ${JSON.stringify('hello '.repeat(400))};`;
/** Above what the edge compresses on the fly (64 KiB). */
const LARGE_CSS = Array.from({ length: 4000 }, (_, i) => `.rule-${i} { color: #${(i % 4096).toString(16)}; }`).join(
  '\n',
);
const FILES = [
  { name: 'index.html', content: '<!doctype html><title>variants</title>' },
  { name: 'app.js', content: SMALL_JS },
  { name: 'site.css', content: LARGE_CSS },
];

for (const database of databases) {
  describe(`variants made after the release is live (${database.name})`, () => {
    let dataDir: string;
    let schema: string | undefined;
    let server: TestServer;
    let world: World;

    const start = () => startTestServer({ dataDir, schema, postgres: database.postgres });
    const get = (file: string, headers: Record<string, string> = {}) => {
      const port = Number(new URL(server.url).port);
      return siteRequest(port, `${world.site.name}.localhost:${port}`, file, { headers });
    };
    const pendingJobs = async () =>
      Number(
        (
          await server.app.db
            .selectFrom('jobs')
            .select((eb) => eb.fn.countAll().as('count'))
            .where('kind', '=', 'variants')
            .where('state', '=', 'pending')
            .executeTakeFirstOrThrow()
        ).count,
      );

    beforeAll(async () => {
      dataDir = await mkdtemp(path.join(os.tmpdir(), 'wharf-variants-'));
      schema = database.postgres ? `test_${randomString(12)}` : undefined;
      if (schema) await withPg((client) => client.query(`create schema ${schema}`));
      server = await start();
      // No variant is made by this process: its queue is stopped before the upload.
      await server.app.jobs.close();
      world = await buildWorld(server.url);
      await uploadRelease(world.clients.owner, world.site._id, 'first', ['main'], FILES);
    });
    afterAll(async () => {
      await server?.close();
      if (schema) await withPg((client) => client.query(`drop schema if exists ${schema} cascade`));
      await rm(dataDir, { recursive: true, force: true });
    });

    it('serves the release at once, its variants still queued', async () => {
      expect(await pendingJobs()).toBeGreaterThan(0);
      const rows = await server.app.db.selectFrom('blobs').select(['br_size', 'gz_size', 'variants_pending']).execute();
      expect(rows.every((row) => row.br_size === null && row.gz_size === null)).toBe(true);
      const page = await get('/', { 'accept-encoding': 'gzip, br' });
      expect(page.status).toBe(200);
      // Too small to pay: never compressed, so it does not vary.
      expect(page.headers['content-encoding']).toBeUndefined();
      expect(page.headers.vary).toBeUndefined();
    });

    it('compresses a small text file on the fly, with an ETag of its own and the right length', async () => {
      const br = await get('/app.js', { 'accept-encoding': 'gzip, br' });
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers.etag).toBe(`"${sha256(SMALL_JS)}-br-fast"`);
      expect(br.headers.vary).toBe('Accept-Encoding');
      expect(Number(br.headers['content-length'])).toBe(br.body.length);
      expect(brotliDecompressSync(br.body).toString()).toBe(SMALL_JS);
      const gz = await get('/app.js', { 'accept-encoding': 'gzip' });
      expect(gz.headers.etag).toBe(`"${sha256(SMALL_JS)}-gzip-fast"`);
      expect(gunzipSync(gz.body).toString()).toBe(SMALL_JS);
      const again = await get('/app.js', { 'accept-encoding': 'br', 'if-none-match': br.headers.etag! });
      expect(again.status).toBe(304);
      const plain = await get('/app.js');
      expect([plain.headers['content-encoding'], plain.headers.etag, plain.text]).toEqual([
        undefined,
        `"${sha256(SMALL_JS)}"`,
        SMALL_JS,
      ]);
      expect(plain.headers.vary).toBe('Accept-Encoding');
    });

    it('sends a larger text file unencoded until its variants exist, saying the answer varies', async () => {
      const css = await get('/site.css', { 'accept-encoding': 'br' });
      expect(css.headers['content-encoding']).toBeUndefined();
      expect(css.headers.etag).toBe(`"${sha256(LARGE_CSS)}"`);
      expect(css.headers.vary).toBe('Accept-Encoding');
      expect(css.text).toBe(LARGE_CSS);
      const range = await get('/site.css', { 'accept-encoding': 'br', range: 'bytes=0-5' });
      expect([range.status, range.text]).toEqual([206, LARGE_CSS.slice(0, 6)]);
    });

    it('makes the variants in a restarted server from the jobs the stopped one left, and the edge sends them', async () => {
      await server.close();
      server = await start();
      world.clients.owner = await signedIn(server.url, 'owner');
      await vi.waitFor(async () => expect(await pendingJobs()).toBe(0), { timeout: 20_000, interval: 50 });
      const blob = await server.app.db
        .selectFrom('blobs')
        .select(['br_size', 'gz_size', 'variants_pending'])
        .where('hash', '=', sha256(LARGE_CSS))
        .executeTakeFirstOrThrow();
      expect(Number(blob.variants_pending)).toBe(0);
      expect(Number(blob.br_size)).toBeLessThan(LARGE_CSS.length);
      // The edge asks after a pending blob at most once a second: the stored variant comes soon after.
      const br = await vi.waitFor(
        async () => {
          const answer = await get('/site.css', { 'accept-encoding': 'gzip, br' });
          expect(answer.headers.etag).toBe(`"${sha256(LARGE_CSS)}-br"`);
          return answer;
        },
        { timeout: 20_000, interval: 100 },
      );
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers.etag).toBe(`"${sha256(LARGE_CSS)}-br"`);
      expect(br.headers['content-length']).toBe(String(blob.br_size));
      expect(br.headers.vary).toBe('Accept-Encoding');
      expect(brotliDecompressSync(br.body).toString()).toBe(LARGE_CSS);
      const gz = await get('/site.css', { 'accept-encoding': 'gzip' });
      expect([gz.headers.etag, gz.headers['content-length']]).toEqual([
        `"${sha256(LARGE_CSS)}-gzip"`,
        String(blob.gz_size),
      ]);
      expect(gunzipSync(gz.body).toString()).toBe(LARGE_CSS);
      // The small file too: its stored variant replaces the one made on the fly, under its own ETag.
      const small = await vi.waitFor(
        async () => {
          const answer = await get('/app.js', { 'accept-encoding': 'br' });
          expect(answer.headers.etag).toBe(`"${sha256(SMALL_JS)}-br"`);
          return answer;
        },
        { timeout: 20_000, interval: 100 },
      );
      expect(small.headers.etag).toBe(`"${sha256(SMALL_JS)}-br"`);
      expect(brotliDecompressSync(small.body).toString()).toBe(SMALL_JS);
      const stale = await get('/app.js', { 'accept-encoding': 'br', 'if-none-match': `"${sha256(SMALL_JS)}-br-fast"` });
      expect(stale.status).toBe(200);
    });

    it('queues nothing for a release whose files are all done already', async () => {
      const before = await server.app.db.selectFrom('jobs').select('id').where('kind', '=', 'variants').execute();
      await uploadRelease(world.clients.owner, world.site._id, 'again', ['main'], FILES);
      const after = await server.app.db.selectFrom('jobs').select('id').where('kind', '=', 'variants').execute();
      expect(after.length).toBe(before.length);
    });
  });
}
