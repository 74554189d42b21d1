import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { siteRequest } from '../../test/siteClient.ts';
import { buildWorld, uploadRelease } from '../../test/world.ts';

const RELEASE_CONFIG = 'forms:\n  - name: contact\n    type: email\n    recipient: owner-secret@example.com\n';
const FILES = [
  { name: 'index.html', content: '<p>home</p>' },
  { name: '.wharf.yml', content: RELEASE_CONFIG },
  { name: '_redirects', content: '/old /new 301' },
  { name: '_headers', content: '/*\n  X-Secret: yes' },
  { name: '.env', content: 'API_KEY=secret' },
  { name: '.git/config', content: '[remote "origin"] secret' },
  { name: '.git/index.html', content: 'secret' },
  { name: 'docs/.DS_Store', content: 'secret' },
  { name: '.well-known/security.txt', content: 'Contact: mailto:security@example.com' },
  { name: '.well-known/acme-challenge/token', content: 'token.key' },
  { name: '.well-known/.htpasswd', content: 'secret' },
  { name: 'docs/_headers', content: 'an ordinary file in a folder' },
];

describe('what a release shows visitors', () => {
  let server: TestServer;
  let port: number;
  let host: string;

  beforeAll(async () => {
    server = await startTestServer();
    port = Number(new URL(server.url).port);
    const world = await buildWorld(server.url);
    host = `${world.site.name}.localhost:${port}`;
    await uploadRelease(world.clients.owner, world.site._id, 'with dotfiles', ['main'], FILES);
  });
  afterAll(() => server.close());

  it.each([
    '/.wharf.yml',
    '/_redirects',
    '/_headers',
    '/.env',
    '/.git/config',
    '/.git/',
    '/.git',
    '/docs/.DS_Store',
    '/.well-known/.htpasswd',
    '/%2Ewharf.yml',
    '/docs/../.wharf.yml',
  ])('never serves %s', async (path) => {
    const answer = await siteRequest(port, host, path);
    expect(answer.status).toBe(404);
    expect(answer.text).not.toContain('secret');
  });

  it.each([
    ['/.well-known/security.txt', 'Contact: mailto:security@example.com'],
    ['/.well-known/acme-challenge/token', 'token.key'],
    ['/docs/_headers', 'an ordinary file in a folder'],
  ])('serves %s', async (path, content) => {
    const answer = await siteRequest(port, host, path);
    expect([answer.status, answer.text]).toEqual([200, content]);
  });

  it('still reads its forms from .wharf.yml', async () => {
    const answer = await siteRequest(port, host, '/.wharf/forms/contact', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: 'message=hello',
    });
    expect(answer.status).toBe(200);
  });

  const post = (fields: string, referer?: string) =>
    siteRequest(port, host, '/.wharf/forms/contact', {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(referer === undefined ? {} : { referer }),
      },
      body: fields,
    });

  it.each([
    ['/thanks', '/thanks'],
    ['/thanks?sent=1#top', '/thanks?sent=1#top'],
    ['/\\evil.example/', '/'],
    ['\\\\evil.example/', '/'],
    ['//evil.example/', '/'],
    ['/\t/evil.example/', '/'],
    ['https://evil.example/', '/'],
    ['javascript:alert(1)', '/'],
    ['SITE//evil.example/path', '/evil.example/path'],
    ['SITE/contact?x=1', '/contact?x=1'],
  ])('sends a visitor whose _next is %j to %s', async (next, location) => {
    const answer = await post(`_next=${encodeURIComponent(next.replace('SITE', `http://${host}`))}`);
    expect([answer.status, answer.headers.location]).toEqual([303, location]);
  });

  it('follows the Referer only when it is a page of the site, whatever its scheme', async () => {
    expect((await post('a=1', 'https://evil.example/form')).headers.location).toBe('/');
    expect((await post('a=1', `https://${host}/contact`)).headers.location).toBe('/contact');
    expect((await post('_next=//evil.example/', `http://${host}/contact`)).headers.location).toBe('/contact');
  });
});
