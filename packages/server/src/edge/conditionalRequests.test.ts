import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { type SiteAnswer, siteRequest } from '../../test/siteClient.ts';
import { buildWorld, uploadRelease, type World } from '../../test/world.ts';

const download = (version: string) => `${version} `.repeat(4000);
const SCRIPT = `export const data = ${JSON.stringify('y'.repeat(4000))};`;
const filesOf = (version: string) => [
  { name: 'index.html', content: '<p>home</p>' },
  { name: 'download.txt', content: download(version) },
  { name: 'app.js', content: SCRIPT },
  { name: 'og-image-1200x630.png', content: 'not really a picture' },
  { name: 'sitemap-20240101.xml', content: '<urlset/>' },
  { name: 'assets/index-BX3k9aQz.css', content: 'body{color:red}' },
  { name: '404.html', content: '<p>not here</p>' },
];

const DAY_MS = 24 * 60 * 60 * 1000;
const httpDate = (time: number) => new Date(time).toUTCString();

describe('conditional and ranged requests', () => {
  let server: TestServer;
  let world: World;
  let port: number;
  let host: string;
  /** The answer to a plain GET of download.txt in the first release. */
  let first: SiteAnswer;

  beforeAll(async () => {
    server = await startTestServer();
    port = Number(new URL(server.url).port);
    world = await buildWorld(server.url);
    host = `${world.site.name}.localhost:${port}`;
    await uploadRelease(world.clients.owner, world.site._id, 'first', ['main'], filesOf('first'));
    first = await get('/download.txt');
  });
  afterAll(() => server.close());

  const get = (path: string, headers: Record<string, string> = {}) => siteRequest(port, host, path, { headers });
  const lastModified = () => Date.parse(String(first.headers['last-modified']));

  it('sends a Last-Modified of the release with the strong ETag', () => {
    expect(first.headers.etag).toMatch(/^"[0-9a-f]+"$/);
    expect(Math.abs(lastModified() - Date.now())).toBeLessThan(DAY_MS);
  });

  it('answers 412 when If-Match or If-Unmodified-Since fail, in the order of RFC 9110 §13.2.2', async () => {
    const etag = String(first.headers.etag);
    const status = async (headers: Record<string, string>, path = '/download.txt') => (await get(path, headers)).status;
    expect(await status({ 'if-match': '"another"' })).toBe(412);
    expect(await status({ 'if-match': `W/${etag}` })).toBe(412);
    expect(await status({ 'if-match': `"another", ${etag}` })).toBe(200);
    expect(await status({ 'if-match': '*' })).toBe(200);
    expect(await status({ 'if-unmodified-since': httpDate(lastModified() - DAY_MS) })).toBe(412);
    expect(await status({ 'if-unmodified-since': httpDate(lastModified()) })).toBe(200);
    expect(await status({ 'if-unmodified-since': 'not a date' })).toBe(200);
    // If-Match decides alone when both are sent.
    expect(await status({ 'if-match': etag, 'if-unmodified-since': httpDate(lastModified() - DAY_MS) })).toBe(200);
    // Preconditions come before freshness: a stale If-Match is 412 even for a current If-None-Match.
    expect(await status({ 'if-match': '"another"', 'if-none-match': etag })).toBe(412);
    expect(await status({ 'if-none-match': etag })).toBe(304);
    expect(await status({ 'if-modified-since': httpDate(lastModified()) })).toBe(304);
    expect(await status({ 'if-modified-since': httpDate(lastModified() - DAY_MS) })).toBe(200);
    // If-None-Match decides alone when both are sent.
    expect(await status({ 'if-none-match': '"another"', 'if-modified-since': httpDate(Date.now() + DAY_MS) })).toBe(
      200,
    );
    // They concern the file asked for: the release's 404 page stays a 404.
    expect(await status({ 'if-match': '"another"' }, '/missing.txt')).toBe(404);
  });

  it('resumes a download with If-Range only from the release it began with', async () => {
    const etag = String(first.headers.etag);
    const resumed = await get('/download.txt', { range: 'bytes=6-', 'if-range': etag });
    expect(resumed.status).toBe(206);
    expect(resumed.text).toBe(download('first').slice(6));
    const byDate = await get('/download.txt', {
      range: 'bytes=6-',
      'if-range': String(first.headers['last-modified']),
    });
    expect(byDate.status).toBe(206);

    await uploadRelease(world.clients.owner, world.site._id, 'second', ['main'], filesOf('second'));
    const acrossDeploy = await get('/download.txt', { range: 'bytes=6-', 'if-range': etag });
    expect(acrossDeploy.status).toBe(200);
    expect(acrossDeploy.headers['content-range']).toBeUndefined();
    expect(acrossDeploy.text).toBe(download('second'));
    const current = await get('/download.txt');
    const weak = await get('/download.txt', { range: 'bytes=6-', 'if-range': `W/${current.headers.etag}` });
    expect(weak.status).toBe(200);
    expect((await get('/download.txt', { range: 'bytes=6-', 'if-range': String(current.headers.etag) })).status).toBe(
      206,
    );
    const oldDate = await get('/download.txt', { range: 'bytes=6-', 'if-range': httpDate(lastModified() - DAY_MS) });
    expect(oldDate.status).toBe(200);
  });

  it('weighs Accept-Encoding by q-value, case-insensitively', async () => {
    const encodingOf = async (accept: string) =>
      (await get('/app.js', { 'accept-encoding': accept })).headers['content-encoding'];
    expect(await encodingOf('gzip;q=0')).toBeUndefined();
    expect(await encodingOf('br;q=0, gzip')).toBe('gzip');
    expect(await encodingOf('GZIP')).toBe('gzip');
    expect(await encodingOf('gzip, deflate, br, zstd')).toBe('br');
    expect(await encodingOf('br;q=0.5, gzip;q=0.9')).toBe('gzip');
    expect(await encodingOf('*;q=0')).toBeUndefined();
  });

  it('keeps only names with a content hash immutable', async () => {
    const cacheControl = async (path: string) => (await get(path)).headers['cache-control'];
    expect(await cacheControl('/og-image-1200x630.png')).toBe('public, max-age=0, must-revalidate');
    expect(await cacheControl('/sitemap-20240101.xml')).toBe('public, max-age=0, must-revalidate');
    expect(await cacheControl('/assets/index-BX3k9aQz.css')).toBe('public, max-age=31536000, immutable');
  });
});
