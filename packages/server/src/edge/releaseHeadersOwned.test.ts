import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus } from '../../test/client.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { rawRequest } from '../../test/rawRequest.ts';
import { basic, siteRequest } from '../../test/siteClient.ts';
import { buildWorld, uploadRelease, type World } from '../../test/world.ts';

const page = (title: string) => `<!doctype html><title>${title}</title>`;
const CONTENT = 'plain text, readable as it is';

/** Names a release may not set, each on its line of the `_headers` below (line 2 onwards). */
const RESERVED = [
  'Transfer-Encoding: chunked',
  'Content-Encoding: gzip',
  'Content-Length: 3',
  'Trailer: X-Checksum',
  'Connection: close',
  'Keep-Alive: timeout=1',
  'Upgrade: h2c',
  'TE: trailers',
  'Proxy-Authenticate: Basic',
  'Content-Range: bytes 0-1/2',
  'Location: https://evil.example/',
  'Date: Thu, 01 Jan 1970 00:00:00 GMT',
  'Server: Apache',
  'Age: 99999',
  'Alt-Svc: h2=":8443"',
  'Allow: DELETE',
  'Accept-Ranges: none',
  'Set-Cookie: session=fixed; Domain=localhost',
];

/** An upstream that tells whether it was sent a credential. */
function startUpstream() {
  const server = http.createServer((req, res) =>
    res.end(JSON.stringify({ authorization: req.headers.authorization ?? null })),
  );
  return new Promise<http.Server>((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe('headers a release’s _headers may not set, and Basic-Auth', () => {
  let server: TestServer;
  let upstream: http.Server;
  let world: World;
  let port: number;
  let host: string;
  let problems: { file: string; line: number; message: string; severity: string }[];
  const get = (path: string, authorization?: string) =>
    siteRequest(port, host, path, { headers: authorization ? { authorization } : {} });

  beforeAll(async () => {
    // The upstream is on loopback, which Wharf refuses unless the operator allows private upstreams.
    server = await startTestServer({ env: { WHARF_ALLOW_PRIVATE_UPSTREAMS: 'on' } });
    upstream = await startUpstream();
    port = Number(new URL(server.url).port);
    world = await buildWorld(server.url);
    host = `${world.site.name}.localhost:${port}`;
    const headers = [
      '/*',
      ...RESERVED.map((line) => `  ${line}`),
      '  ! Content-Encoding',
      '  X-Kept: yes',
      '/protected/*',
      '  Basic-Auth: someuser:somepassword other:p@ss:word',
      '  X-Private: yes',
    ].join('\n');
    const release = await uploadRelease(
      world.clients.owner,
      world.site._id,
      'owned',
      ['main'],
      [
        { name: 'index.html', content: page('home') },
        { name: 'file.txt', content: CONTENT },
        { name: 'protected/page.html', content: page('members only') },
        { name: '_headers', content: headers },
        {
          name: '_redirects',
          content: `/protected/api/*  http://127.0.0.1:${(upstream.address() as AddressInfo).port}/:splat  200`,
        },
      ],
    );
    problems = release.ruleProblems;
  });
  afterAll(async () => {
    await server?.close();
    upstream?.close();
  });

  it('ignores framing, hop-by-hop and server-owned names, warning about each with its line', async () => {
    const reserved = RESERVED.map((line, index) => ({ name: line.split(':')[0]!, line: index + 2 }));
    for (const { name, line } of [...reserved, { name: 'Content-Encoding', line: RESERVED.length + 2 }]) {
      expect(problems, name).toContainEqual(
        expect.objectContaining({
          file: '_headers',
          line,
          severity: 'warning',
          message: expect.stringContaining(name),
        }),
      );
    }
    const answer = await rawRequest(port, host, '/file.txt');
    expect(answer.status).toBe(200);
    expect(answer.body).toBe(CONTENT);
    expect(answer.headers['content-length']).toBe(String(CONTENT.length));
    expect(answer.head.toLowerCase()).not.toMatch(/transfer-encoding|content-encoding|trailer|content-range|upgrade/);
    expect(answer.headers['x-kept']).toBe('yes');
    expect(answer.headers.date).not.toContain('1970');
    expect(answer.headers['accept-ranges']).toBe('bytes');
    for (const name of ['server', 'age', 'alt-svc', 'allow', 'set-cookie', 'location', 'keep-alive', 'te'])
      expect(answer.headers[name], name).toBeUndefined();
    expect(answer.headers['proxy-authenticate']).toBeUndefined();
  });

  it('refuses the same names, and values it cannot send, among the console’s headers', async () => {
    const path = `/api/v1/sites/${world.site._id}/headers`;
    for (const headers of [
      [{ name: 'Transfer-Encoding', value: 'chunked' }],
      [{ name: 'set-cookie', value: 'a=1', path: '/x/*' }],
      [{ name: 'X-Title', value: '日本' }],
      [{ name: 'X-Split', value: 'a\r\nb' }],
    ]) {
      const refused = await world.clients.owner.put(path, { headers });
      expect(refused.status, headers[0]!.name).toBe(400);
      expect(refused.body).toMatchObject({ code: 'VALIDATION_FAILED' });
    }
    expect((await get('/file.txt')).status).toBe(200);
  });

  it('asks for one of the Basic-Auth users on the paths of its block, and never sends the header', async () => {
    const refused = await get('/protected/page');
    expect(refused.status).toBe(401);
    expect(refused.headers['www-authenticate']).toMatch(/^Basic realm=/);
    expect(refused.text).not.toContain('members only');
    expect(JSON.stringify(refused.headers)).not.toContain('somepassword');
    const wrong = await get('/protected/page', basic('someuser', 'wrong'));
    expect(wrong.status).toBe(401);
    const unknown = await get('/protected/page', basic('nobody', 'somepassword'));
    expect(unknown.status).toBe(401);
    for (const [user, password] of [
      ['someuser', 'somepassword'],
      ['other', 'p@ss:word'],
    ] as const) {
      const allowed = await get('/protected/page', basic(user, password));
      expect([allowed.status, allowed.text]).toEqual([200, page('members only')]);
      expect(allowed.headers['x-private']).toBe('yes');
      expect(allowed.headers['basic-auth']).toBeUndefined();
    }
    const proxied = await get('/protected/api/data', basic('someuser', 'somepassword'));
    expect(JSON.parse(proxied.text)).toEqual({ authorization: null });
    expect((await get('/protected/api/data')).status).toBe(401);
    const open = await get('/');
    expect([open.status, open.headers['basic-auth']]).toEqual([200, undefined]);
  });

  it('stores only the hashes of the passwords', async () => {
    const rows = await server.app.db.selectFrom('releases').select('rules').execute();
    const stored = rows.map((row) => String(row.rules)).join('\n');
    expect(stored).toContain('someuser');
    expect(stored).not.toContain('somepassword');
    expect(stored).not.toContain('p@ss:word');
    expect(stored).toContain('scrypt$');
  });

  it('slows guesses down as it does for site passwords', async () => {
    const other = `/protected/page?guess`;
    for (let i = 0; i < 4; i++) expect((await get(other, basic('someuser', `guess${i}`))).status).toBe(401);
    // Four failures: the next try waits 400 ms before it is checked.
    const started = performance.now();
    expect((await get(other, basic('someuser', 'guess4'))).status).toBe(401);
    expect(performance.now() - started).toBeGreaterThanOrEqual(350);
  });

  it('leaves a branch’s own password in charge: a browser sends one credential', async () => {
    const base = `/api/v1/sites/${world.site._id}`;
    expectStatus(await world.clients.owner.put(`${base}/password`, { password: 'letmein' }), 200);
    try {
      expect((await get('/protected/page', basic('someuser', 'somepassword'))).status).toBe(401);
      expect((await get('/protected/page', basic('user', 'letmein'))).status).toBe(200);
    } finally {
      expectStatus(await world.clients.owner.delete(`${base}/password`), 200);
    }
  });
});
