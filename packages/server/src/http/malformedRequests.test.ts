import { STATUS_CODES } from 'node:http';
import { type ErrorCode, errorCodes } from '@wharf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256, tarGz, uploadForm } from '../../test/archives.ts';
import { databases, startTestServer, type TestServer } from '../../test/harness.ts';
import { rawRequest } from '../../test/rawHttp.ts';
import { snapshot } from '../../test/snapshot.ts';
import { buildWorld, type World } from '../../test/world.ts';

interface Malformed {
  label: string;
  /** The request line and any headers of the request, without the final blank line. */
  head: (w: World) => string;
  body?: (w: World) => Buffer | string;
  code: ErrorCode;
}

const json = 'Content-Type: application/json';
const asOwner = (w: World) => `Cookie: ${w.clients.owner.cookieHeader}`;
const post =
  (path: string, ...headers: string[]) =>
  (w: World) =>
    [`POST ${path} HTTP/1.1`, asOwner(w), ...headers].join('\r\n');
const get =
  (path: (w: World) => string, signedIn = true) =>
  (w: World) =>
    [`GET ${path(w)} HTTP/1.1`, ...(signedIn ? [asOwner(w)] : [])].join('\r\n');

/** Requests no client of Wharf sends, and the code of the contract each must get. */
const MALFORMED: Malformed[] = [
  { label: 'JSON that does not parse', head: post('/api/v1/orgs', json), body: () => '{"name":', code: 'BODY_INVALID' },
  {
    label: 'JSON that poisons a prototype',
    head: post('/api/v1/orgs', json),
    body: () => '{"name":"a","__proto__":{"admin":true}}',
    code: 'BODY_INVALID',
  },
  { label: 'an empty JSON body', head: post('/api/v1/orgs', json), body: () => '', code: 'BODY_INVALID' },
  {
    label: 'JSON bytes that are not UTF-8',
    head: post('/api/v1/orgs', json),
    body: () => Buffer.concat([Buffer.from('{"name":"a'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]),
    code: 'TEXT_INVALID',
  },
  {
    label: 'a NUL in a JSON field',
    head: post('/api/v1/orgs', json),
    body: () => '{"name":"a\\u0000b"}',
    code: 'TEXT_INVALID',
  },
  {
    label: 'a lone surrogate in a JSON field',
    head: post('/api/v1/orgs', json),
    body: () => '{"name":"a\\ud800b"}',
    code: 'TEXT_INVALID',
  },
  {
    label: 'a NUL in a JSON key',
    head: post('/api/v1/orgs', json),
    body: () => '{"name":"Acme","x\\u0000":1}',
    code: 'TEXT_INVALID',
  },
  {
    label: 'a lone surrogate in a deploy manifest path',
    head: (w) => post(`/api/v1/sites/${w.site._id}/deploys`, json)(w),
    body: () =>
      JSON.stringify({ name: 'r', branches: [], files: [{ path: 'a\ud800.txt', hash: sha256('x'), size: 1 }] }),
    code: 'TEXT_INVALID',
  },
  { label: 'a NUL in a path id, signed out', head: get(() => '/api/v1/orgs/a%00b/logo', false), code: 'TEXT_INVALID' },
  { label: 'a NUL in a path id', head: get(() => '/api/v1/sites/a%00b'), code: 'TEXT_INVALID' },
  { label: 'a lone % in a path', head: get(() => '/api/v1/orgs/%/logo', false), code: 'URL_INVALID' },
  { label: 'a path that is not UTF-8', head: get(() => '/api/v1/orgs/%FF/logo', false), code: 'URL_INVALID' },
  { label: 'an encoded surrogate in a path', head: get(() => '/api/v1/sites/%ED%A0%80'), code: 'URL_INVALID' },
  {
    label: 'a path parameter of 1,001 characters',
    head: get(() => `/api/v1/orgs/${'x'.repeat(1001)}/logo`, false),
    code: 'URL_TOO_LONG',
  },
  {
    label: 'NULs as a site search',
    head: get((w) => `/api/v1/orgs/${w.org._id}/sites?search=%00%00%00`),
    code: 'TEXT_INVALID',
  },
  {
    label: 'NULs as a release search (a full-text query)',
    head: get((w) => `/api/v1/sites/${w.site._id}/releases?search=%00%00%00`),
    code: 'TEXT_INVALID',
  },
  {
    label: 'a NUL in a query filter',
    head: get((w) => `/api/v1/orgs/${w.org._id}/audit?event=site%00added`),
    code: 'TEXT_INVALID',
  },
  {
    label: 'a query that is not UTF-8',
    head: get((w) => `/api/v1/orgs/${w.org._id}/members?search=%FF%FE%FD`),
    code: 'URL_INVALID',
  },
  {
    label: 'a NUL in a sign-in flow query',
    head: get(() => '/auth/in-memory/callback?state=a%00b', false),
    code: 'TEXT_INVALID',
  },
  {
    label: 'an unsupported media type',
    head: post('/api/v1/orgs', 'Content-Type: application/xml'),
    body: () => '<a/>',
    code: 'MEDIA_TYPE_UNSUPPORTED',
  },
  {
    label: 'JSON where a logo (multipart) is expected',
    head: (w) => post(`/api/v1/orgs/${w.org._id}/logo`, json)(w),
    body: () => '{}',
    code: 'MEDIA_TYPE_UNSUPPORTED',
  },
  {
    label: 'a JSON body over the limit',
    head: post('/api/v1/orgs', json),
    body: () => JSON.stringify({ name: 'x'.repeat(3 * 1024 * 1024) }),
    code: 'BODY_TOO_LARGE',
  },
  {
    label: 'a NUL in a multipart release name',
    head: (w) => post(`/api/v1/sites/${w.site._id}/releases`, 'Content-Type: multipart/form-data; boundary=b')(w),
    body: () => '--b\r\nContent-Disposition: form-data; name="name"\r\n\r\na\0b\r\n--b--\r\n',
    code: 'TEXT_INVALID',
  },
  {
    label: 'a NUL in a header',
    head: (w) => `${get(() => '/api/v1/user')(w)}\r\nX-Note: a\0b`,
    code: 'REQUEST_MALFORMED',
  },
  {
    label: 'headers over 16 KiB',
    head: (w) => `${get(() => '/api/v1/user')(w)}\r\nX-Note: ${'x'.repeat(20_000)}`,
    code: 'HEADERS_TOO_LARGE',
  },
  { label: 'a method HTTP does not know', head: () => 'BREW /api/v1/user HTTP/1.1', code: 'REQUEST_MALFORMED' },
];

describe.each(databases)('malformed requests on $name', ({ postgres }) => {
  let server: TestServer;
  let world: World;

  beforeAll(async () => {
    server = await startTestServer({ postgres });
    world = await buildWorld(server.url);
  });
  afterAll(() => server?.close());

  it('answers each with its code of the contract and that code’s status, never a 500, and stores nothing', async () => {
    const port = Number(new URL(server.url).port);
    const problems: string[] = [];
    for (const request of MALFORMED) {
      const before = await snapshot(server.app.db);
      const answer = await rawRequest(port, request.head(world), request.body?.(world));
      const { code, statusCode, error } = answer.body ?? {};
      const declared = errorCodes[code as ErrorCode];
      if (code !== request.code || answer.status !== declared || statusCode !== declared)
        problems.push(
          `${request.label}: wanted ${errorCodes[request.code]} ${request.code}, got ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`,
        );
      else if (error !== STATUS_CODES[declared])
        problems.push(`${request.label}: "${error}" is not the text of ${declared}`);
      if ((await snapshot(server.app.db)) !== before) problems.push(`${request.label}: the database changed`);
    }
    expect(problems).toEqual([]);
  });

  it('searches release names for quotes, stars, NEAR, minus signs and parentheses as plain text', async () => {
    const { owner } = world.clients;
    const name = 'v2 "quoted" NEAR(a b) -x* OR';
    const form = uploadForm(await tarGz([{ name: 'index.html', content: 'x' }]), name, ['syntax']);
    expect((await owner.request('POST', `/api/v1/sites/${world.site._id}/releases`, form)).status).toBe(200);
    for (const search of ['"quoted"', 'NEAR(a b)', '-x*', ' OR', '(a b)', 'v2 "q']) {
      const answer = await owner.get(`/api/v1/sites/${world.site._id}/releases?search=${encodeURIComponent(search)}`);
      expect(answer.status, search).toBe(200);
      expect(
        answer.body.items.map((r: { name: string }) => r.name),
        search,
      ).toEqual([name]);
    }
  });
});
