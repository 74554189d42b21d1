import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, type TestClient } from '../../test/client.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { reusedConnectionCutter } from '../../test/reusedConnections.ts';
import { siteRequest } from '../../test/siteClient.ts';
import { buildWorld, uploadRelease, type World } from '../../test/world.ts';
import { openMail } from '../mail/queue.ts';

/** A real upstream that tells what it received. */
function startUpstream() {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      res.writeHead(201, { 'content-type': 'application/json', 'x-upstream': 'yes' });
      res.end(
        JSON.stringify({
          method: req.method,
          url: req.url,
          headers: req.headers,
          body: Buffer.concat(chunks).toString(),
        }),
      );
    });
  });
  return new Promise<http.Server>((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe('redirects and forms at the edge', () => {
  let server: TestServer;
  let upstream: http.Server;
  let world: World;
  let owner: TestClient;
  let port: number;
  let host: string;
  let redirectsPath: string;

  beforeAll(async () => {
    // The upstream runs on loopback, which Wharf refuses unless the operator allows private upstreams.
    server = await startTestServer({ env: { WHARF_ALLOW_PRIVATE_UPSTREAMS: 'on' } });
    upstream = await startUpstream();
    port = Number(new URL(server.url).port);
    world = await buildWorld(server.url);
    owner = world.clients.owner;
    host = `${world.site.name}.localhost:${port}`;
    redirectsPath = `/api/v1/sites/${world.site._id}/branches/${world.site.mainBranch}/redirects`;
    const files = [
      { name: 'index.html', content: '<form method="post" action="/.wharf/forms/contact"></form>' },
      {
        name: '.wharf.yml',
        content:
          'forms:\n  - name: contact\n    type: db\n  - name: mail\n    type: email\n    recipient: me@example.com\n',
      },
    ];
    await uploadRelease(owner, world.site._id, 'forms', ['main'], files);
  });
  afterAll(async () => {
    await server.close();
    upstream.close();
  });

  it('answers a file rule with its content and the content type of its path', async () => {
    const redirects = [{ type: 'file', path: '/robots.txt', config: { content: 'User-agent: *\nDisallow: /' } }];
    expectStatus(await owner.put(redirectsPath, { redirects }), 200);
    const answer = await siteRequest(port, host, '/robots.txt');
    expect(answer.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(answer.text).toBe('User-agent: *\nDisallow: /');
  });

  it('answers a POST to a file rule with 405, as to any file', async () => {
    const redirects = [{ type: 'file', path: '/robots.txt', config: { content: 'User-agent: *' } }];
    expectStatus(await owner.put(redirectsPath, { redirects }), 200);
    const answer = await siteRequest(port, host, '/robots.txt', { method: 'POST', body: 'x=1' });
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe('GET, HEAD');
    expect(answer.text).toBe('');
  });

  it('streams a prefix to the upstream with X-Forwarded headers and the prefix stripped', async () => {
    const { port: upstreamPort } = upstream.address() as AddressInfo;
    const redirects = [
      {
        type: 'reverse_proxy',
        path: '/api/*',
        config: { url: `http://127.0.0.1:${upstreamPort}/v1`, stripPathPrefix: '/api' },
      },
      { type: 'reverse_proxy', path: '/down/*', config: { url: 'http://127.0.0.1:9/' } },
    ];
    expectStatus(await owner.put(redirectsPath, { redirects }), 200);
    const answer = await siteRequest(port, host, '/api/users?page=2', {
      method: 'POST',
      headers: { 'content-type': 'text/plain', 'x-custom': 'kept' },
      body: 'hello upstream',
    });
    expect(answer.status).toBe(201);
    expect(answer.headers['x-upstream']).toBe('yes');
    const seen = JSON.parse(answer.text);
    expect(seen).toMatchObject({ method: 'POST', url: '/v1/users?page=2', body: 'hello upstream' });
    expect(seen.headers['x-custom']).toBe('kept');
    expect(seen.headers['x-forwarded-host']).toBe(host);
    expect(seen.headers['x-forwarded-proto']).toBe('http');
    expect(seen.headers['x-forwarded-for']).toBe('127.0.0.1');
    const down = await siteRequest(port, host, '/down/x');
    expect(down.status).toBe(502);
    expect(down.text).toContain('Bad gateway');
  });

  it('sends a GET again when the upstream closes the kept-alive connection under it, never a POST with a body', async () => {
    const cutter = reusedConnectionCutter();
    const closing = http.createServer((req, res) => {
      if (cutter.cut(req)) return;
      req.resume();
      req.on('end', () => res.end(`${req.method} ${req.url}`));
    });
    await new Promise<void>((resolve) => closing.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(closing.address() as AddressInfo).port}/`;
      expectStatus(
        await owner.put(redirectsPath, { redirects: [{ type: 'reverse_proxy', path: '/up/*', config: { url } }] }),
        200,
      );
      for (const path of ['/up/one', '/up/two', '/up/three']) {
        const answer = await siteRequest(port, host, path);
        expect([answer.status, answer.text]).toEqual([200, `GET ${path}`]);
      }
      expect(cutter.cuts).toBe(2);
      const posted = await siteRequest(port, host, '/up/form', { method: 'POST', body: 'a=1' });
      expect(posted.status).toBe(502);
    } finally {
      closing.closeAllConnections();
      closing.close();
    }
  });

  it('stores a declared db form and redirects back to the page', async () => {
    const answer = await siteRequest(port, host, '/.wharf/forms/contact', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', referer: `http://${host}/contact.html` },
      body: 'name=Ada&message=Hello',
    });
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toBe('/contact.html');
    const rows = await server.app.db.selectFrom('form_submissions').selectAll().where('form', '=', 'contact').execute();
    expect(rows.map((row) => JSON.parse(row.fields))).toEqual([{ name: 'Ada', message: 'Hello' }]);
  });

  it('queues a mail for an email form and answers JSON when asked', async () => {
    const answer = await siteRequest(port, host, '/.wharf/forms/mail', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ email: 'visitor@example.com' }),
    });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toEqual({ ok: true });
    // The world's invitations queued mails too: this one is the form's.
    const jobs = await server.app.db.selectFrom('jobs').selectAll().where('kind', '=', 'mail').execute();
    const mails = jobs.map((job) => openMail(server.app.sealer, job)).filter((mail) => mail.to === 'me@example.com');
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({
      subject: `New submission of mail on ${world.site.name}`,
      replyTo: 'visitor@example.com',
    });
    expect(mails[0]!.text).toContain('email: visitor@example.com');
  });

  it('keeps honeypot submissions apart as spam quietly, refuses unknown forms and oversized bodies', async () => {
    const inbox = () => server.app.db.selectFrom('form_submissions').select('id').where('spam', '=', 0).execute();
    const before = await inbox();
    const trapped = await siteRequest(port, host, '/.wharf/forms/contact', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=bot&_gotcha=spam&_next=/thanks',
    });
    expect(trapped.status).toBe(303);
    expect(trapped.headers.location).toBe('/thanks');
    expect(await inbox()).toEqual(before);
    const spam = await server.app.db.selectFrom('form_submissions').select('fields').where('spam', '=', 1).execute();
    expect(spam.map((row) => JSON.parse(row.fields))).toEqual([{ name: 'bot' }]);
    expect((await siteRequest(port, host, '/.wharf/forms/unknown', { method: 'POST', body: 'a=1' })).status).toBe(404);
    const big = await siteRequest(port, host, '/.wharf/forms/contact', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: `a=${'x'.repeat(70 * 1024)}`,
    });
    expect(big.status).toBe(413);
  });
});
