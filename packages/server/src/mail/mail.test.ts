import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, signedIn, type TestClient } from '../../test/client.ts';
import { databases, startTestServer, type TestServer } from '../../test/harness.ts';
import { siteRequest } from '../../test/siteClient.ts';
import { type SmtpPeer, startSmtpPeer } from '../../test/smtpPeer.ts';
import { buildWorld, uploadRelease, type World } from '../../test/world.ts';
import { MAIL_OFF } from './send.ts';

const mailJobs = (server: TestServer) =>
  server.app.db.selectFrom('jobs').selectAll().where('kind', '=', 'mail').orderBy('created_at').execute();

/** Waits until no mail job is waiting: what the world queued while it was built has gone. */
async function quiet(server: TestServer) {
  await expect
    .poll(async () => (await mailJobs(server)).filter((job) => job.state === 'pending').length, { timeout: 20_000 })
    .toBe(0);
}

/** The one mail job waiting now. */
async function pendingJob(server: TestServer) {
  const pending = (await mailJobs(server)).filter((job) => job.state === 'pending');
  expect(pending).toHaveLength(1);
  return pending[0]!;
}

/** Makes a job waiting for its retry due now, and wakes the runner: the backoff's 30 s are not waited. */
async function hurry(server: TestServer, jobId: string) {
  await server.app.db
    .updateTable('jobs')
    .set({ next_attempt_at: new Date().toISOString() })
    .where('id', '=', jobId)
    .execute();
  await server.app.jobs.wake();
}

const jobOf = async (server: TestServer, id: string) =>
  server.app.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

for (const database of databases) {
  describe(`mail through SMTP (${database.name})`, () => {
    let peer: SmtpPeer;
    let server: TestServer;
    let world: World;
    let owner: TestClient;

    beforeAll(async () => {
      peer = await startSmtpPeer();
      server = await startTestServer({
        postgres: database.postgres,
        captureLog: true,
        env: { SMTP_URL: peer.url, SMTP_FROM: 'Wharf <wharf@example.com>' },
      });
      world = await buildWorld(server.url);
      owner = world.clients.owner;
    });
    afterAll(async () => {
      await server?.close();
      await peer?.close();
    });

    async function invite(email: string) {
      await quiet(server);
      const orgId = world.org._id;
      return expectStatus(await owner.post(`/api/v1/orgs/${orgId}/invites`, { email, admin: false }), 200);
    }

    it('says to the console that mail is on', async () => {
      const env = expectStatus(await world.clients.anonymous.get('/api/v1/system/env'), 200);
      expect(env.features.email).toBe(true);
    });

    it('mails an invitation whose link accepts it, in text and HTML', async () => {
      const created = await invite('ada@example.com');
      await expect.poll(() => peer.received.filter((m) => m.to.includes('ada@example.com')).length).toBe(1);
      const mail = peer.received.find((m) => m.to.includes('ada@example.com'))!;
      expect(mail.from).toBe('wharf@example.com');
      expect(mail.headers.subject).toBe('owner invited you to join Acme on Wharf');
      expect(mail.text).toContain('owner invited you to join Acme on Wharf');
      expect(mail.text).toContain('The invitation expires in 7 days');
      // The very link the console shows its author.
      expect(mail.text).toContain(created.url);
      expect(mail.html).toContain(`href="${created.url.replace(/&/g, '&#38;')}"`);
      const link = new URL(/https?:\/\/\S+\/invite\?token=\S+/.exec(mail.text)![0]);
      const token = link.searchParams.get('token')!;
      const joiner = await signedIn(server.url, 'joiner');
      const seen = expectStatus(await joiner.post(`/api/v1/invites/${encodeURIComponent(token)}`, { token }), 200);
      expect(seen.org.name).toBe('Acme');
      const org = expectStatus(await joiner.put(`/api/v1/invites/${seen._id}/accept`, { token }), 200);
      expect(org._id).toBe(world.org._id);
      const { id } = (await mailJobs(server)).at(-1)!;
      await expect.poll(async () => (await jobOf(server, id)).state).toBe('done');
      expect(await jobOf(server, id)).toMatchObject({ attempts: 1, last_error: null });
    });

    it('keeps the mail sealed in the database: no address, subject, link nor body in clear', async () => {
      const created = await invite('sealed@example.com');
      // The newest mail job: the world's were sent before the invitation.
      const job = (await mailJobs(server)).at(-1)!;
      const token = new URL(created.url).searchParams.get('token')!;
      for (const clear of ['sealed@example.com', 'invited you', token, 'Acme'])
        expect(job.payload).not.toContain(clear);
      expect(Object.keys(JSON.parse(job.payload))).toEqual(['sealed']);
      await expect.poll(() => peer.received.some((m) => m.to.includes('sealed@example.com'))).toBe(true);
    });

    it("mails an email form's submission as a table, with Reply-To the submitter", async () => {
      const files = [
        { name: 'index.html', content: '<form method="post" action="/.wharf/forms/contact"></form>' },
        {
          name: '.wharf.yml',
          content: 'forms:\n  - name: contact\n    type: email\n    recipient: team@example.com\n',
        },
      ];
      await uploadRelease(owner, world.site._id, 'forms', ['main'], files);
      await quiet(server);
      const port = Number(new URL(server.url).port);
      const answer = await siteRequest(port, `${world.site.name}.localhost:${port}`, '/.wharf/forms/contact', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          name: 'Ada Lovelace',
          Email: 'ada@example.org',
          message: 'Hello <b>there</b>\nSecond line',
        }).toString(),
      });
      expect(answer.status).toBe(303);
      await expect.poll(() => peer.received.filter((m) => m.to.includes('team@example.com')).length).toBe(1);
      const mail = peer.received.find((m) => m.to.includes('team@example.com'))!;
      expect(mail.headers.subject).toBe(`New submission of contact on ${world.site.name}`);
      expect(mail.headers['reply-to']).toBe('ada@example.org');
      expect(mail.text).toContain(`on ${world.site.name} (branch main)`);
      expect(mail.text).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d UTC/);
      expect(mail.text).toContain(
        [
          'name:    Ada Lovelace',
          'Email:   ada@example.org',
          'message: Hello <b>there</b>',
          '         Second line',
        ].join('\n'),
      );
      expect(mail.html).toContain('<table');
      expect(mail.html).toContain('Hello &#60;b&#62;there&#60;/b&#62;');
      expect(mail.html).not.toContain('<b>there</b>');
    });

    it('tries a mail again after 451 answers, until the SMTP server accepts it', async () => {
      await quiet(server);
      peer.refuseNext(451, 451);
      await invite('retry@example.com');
      const { id } = await pendingJob(server);
      for (const attempt of [1, 2]) {
        await expect.poll(async () => (await jobOf(server, id)).last_error ?? '').toContain('451');
        const job = await jobOf(server, id);
        expect(job).toMatchObject({ state: 'pending', attempts: attempt });
        // Scheduled later with backoff (some 30 s, then 90 s), not at once.
        expect(Date.parse(job.next_attempt_at) - Date.now()).toBeGreaterThan(15_000);
        await server.app.db.updateTable('jobs').set({ last_error: null }).where('id', '=', id).execute();
        await hurry(server, id);
      }
      await expect.poll(async () => (await jobOf(server, id)).state).toBe('done');
      expect(await jobOf(server, id)).toMatchObject({ attempts: 3, last_error: null });
      expect(peer.received.filter((m) => m.to.includes('retry@example.com'))).toHaveLength(1);
    });

    it('gives a mail up at once when the SMTP server answers 550', async () => {
      await quiet(server);
      peer.refuseNext(550);
      await invite('nobody@example.com');
      const { id } = await pendingJob(server);
      await expect.poll(async () => (await jobOf(server, id)).state).toBe('failed');
      const job = await jobOf(server, id);
      expect(job.attempts).toBe(1);
      expect(job.last_error).toContain('550');
      expect(peer.received.some((m) => m.to.includes('nobody@example.com'))).toBe(false);
    });

    it('logs each mail sent or refused with its recipient and subject, never its body', async () => {
      await quiet(server);
      const lines = server.logLines.map((line) => JSON.parse(line) as Record<string, unknown>);
      const sent = lines.filter((line) => line.msg === 'mail sent');
      expect(
        sent.some(
          (line) => line.to === 'ada@example.com' && line.subject === 'owner invited you to join Acme on Wharf',
        ),
      ).toBe(true);
      expect(lines.some((line) => line.msg === 'mail not sent, given up' && line.to === 'nobody@example.com')).toBe(
        true,
      );
      const mailLines = server.logLines.filter((line) => line.includes('"mail '));
      for (const line of mailLines) {
        expect(line).not.toContain('token=');
        expect(line).not.toContain('Second line');
      }
    });
  });

  describe(`mail off (${database.name})`, () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({ postgres: database.postgres });
    });
    afterAll(() => server?.close());

    it('says mail is off, and fails each mail job for good with why', async () => {
      const owner = await signedIn(server.url, 'owner');
      const env = expectStatus(await owner.get('/api/v1/system/env'), 200);
      expect(env.features.email).toBe(false);
      const org = expectStatus(await owner.post('/api/v1/orgs', { name: 'Quiet' }), 200);
      const created = expectStatus(
        await owner.post(`/api/v1/orgs/${org._id}/invites`, { email: 'ada@example.com', admin: false }),
        200,
      );
      // The console still gets the link to pass on.
      expect(created.url).toContain('/invite?token=');
      await expect.poll(async () => (await mailJobs(server)).map((job) => job.state)).toEqual(['failed']);
      const [job] = await mailJobs(server);
      expect(job).toMatchObject({ attempts: 1, last_error: MAIL_OFF });
    });
  });
}
