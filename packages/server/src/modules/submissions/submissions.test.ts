import type { Submission } from '@wharf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, type TestClient } from '../../../test/client.ts';
import { databases, startTestServer, type TestServer } from '../../../test/harness.ts';
import { siteRequest } from '../../../test/siteClient.ts';
import { buildWorld, uploadRelease, type World } from '../../../test/world.ts';
import { openMail } from '../../mail/queue.ts';

const FORMS =
  'forms:\n  - name: contact\n    type: db\n  - name: mail\n    type: email\n    recipient: me@example.com\n';
const FILES = [
  { name: 'index.html', content: '<form method="post" action="/.wharf/forms/contact"></form>' },
  { name: '.wharf.yml', content: FORMS },
];

describe.each(databases)('form submissions on $name', ({ postgres }) => {
  let server: TestServer;
  let world: World;
  let owner: TestClient;
  let port: number;
  let base: string;
  let previewId: string;

  /** Posts a form as a visitor's browser would, to the branch's own host. */
  async function post(form: string, body: string, branch = '') {
    const host = `${branch ? `${branch}.` : ''}${world.site.name}.localhost:${port}`;
    const answer = await siteRequest(port, host, `/.wharf/forms/${form}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', referer: `http://${host}/` },
      body,
    });
    expect(answer.status).toBe(303);
  }

  const list = async (query = '') =>
    expectStatus(await owner.get(`${base}?${query}`), 200) as { items: Submission[]; count: number };

  beforeAll(async () => {
    server = await startTestServer({ postgres });
    port = Number(new URL(server.url).port);
    world = await buildWorld(server.url);
    owner = world.clients.owner;
    base = `/api/v1/sites/${world.site._id}/submissions`;
    const deployed = await uploadRelease(owner, world.site._id, 'with forms', ['main', 'preview'], FILES);
    previewId = deployed.deployedBranches.find((branch: { name: string }) => branch.name === 'preview')._id;
    await post('contact', 'name=Ada&message=%3DSUM(A1)');
    await post('contact', `name=${encodeURIComponent('Grace, H')}&message=${encodeURIComponent('say "hi"\nbye')}`);
    await post('contact', 'name=Linus&message=from+preview', 'preview');
    await post('mail', 'email=visitor%40example.com');
    await post('contact', 'name=bot&_gotcha=filled');
    await post('mail', 'email=bot%40example.com&_gotcha=filled');
  });
  afterAll(() => server?.close());

  it('lists the inbox newest first, a page at a time, without the sender address', async () => {
    const first = await list('page=0&size=3');
    expect(first.count).toBe(4);
    expect(first.items.map((s) => s.form)).toEqual(['mail', 'contact', 'contact']);
    expect(first.items[1]).toMatchObject({ branchName: 'preview', fields: { name: 'Linus', message: 'from preview' } });
    const second = await list('page=1&size=3');
    expect(second).toMatchObject({ count: 4, items: [{ fields: { name: 'Ada', message: '=SUM(A1)' } }] });
    const dates = [...first.items, ...second.items].map((s) => s.createdAt);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(JSON.stringify(first)).not.toContain('127.0.0.1');
    expect(Object.keys(first.items[0]!).sort()).toEqual(
      ['_id', 'branchId', 'branchName', 'createdAt', 'fields', 'form', 'releaseId', 'siteId', 'spam'].sort(),
    );
  });

  it('filters by form and branch', async () => {
    expect((await list('form=mail')).items.map((s) => s.fields)).toEqual([{ email: 'visitor@example.com' }]);
    const preview = await list(`branchId=${previewId}`);
    expect(preview.items.map((s) => [s.branchId, s.fields.name])).toEqual([[previewId, 'Linus']]);
    const main = await list(`branchId=${world.site.mainBranch}&form=contact`);
    expect(main.items.map((s) => s.fields.name)).toEqual(['Grace, H', 'Ada']);
  });

  it('keeps the honeypot catch apart as spam, without mail nor event', async () => {
    const spam = await list('spam=true');
    expect(spam.items.map((s) => [s.form, s.spam, s.fields])).toEqual([
      ['mail', true, { email: 'bot@example.com' }],
      ['contact', true, { name: 'bot' }],
    ]);
    const jobs = await server.app.db.selectFrom('jobs').selectAll().where('kind', '=', 'mail').execute();
    const formMails = jobs
      .map((job) => openMail(server.app.sealer, job))
      .filter((mail) => mail.to === 'me@example.com');
    expect(formMails.map((mail) => mail.text)).toEqual([expect.stringContaining('visitor@example.com')]);
    const events = await server.app.db
      .selectFrom('events')
      .select('data')
      .where('name', '=', 'form_submitted')
      .execute();
    const announced = events.map((e) => JSON.parse(e.data).submissionId);
    expect(announced).toHaveLength(4);
    for (const caught of spam.items) expect(announced).not.toContain(caught._id);
  });

  it('records form_submitted with the submission, for the site, its team and organization', async () => {
    const [newest] = (await list('size=1')).items;
    const event = await server.app.db
      .selectFrom('events')
      .selectAll()
      .where('name', '=', 'form_submitted')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(event).toMatchObject({
      site_id: world.site._id,
      team_id: world.team._id,
      org_id: world.org._id,
      actor_id: null,
    });
    expect(JSON.parse(event.data)).toEqual({
      submissionId: newest!._id,
      form: 'mail',
      branchId: world.site.mainBranch,
      branchName: 'main',
      fields: { email: 'visitor@example.com' },
    });
  });

  it('reads one submission, and answers 404 to one asked of another site', async () => {
    const [newest] = (await list('size=1')).items;
    expect(expectStatus(await owner.get(`${base}/${newest!._id}`), 200)).toEqual(newest);
    const other = expectStatus(
      await owner.post(`/api/v1/teams/${world.team._id}/sites`, { name: world.unique('other') }),
      200,
    );
    const elsewhere = `/api/v1/sites/${other._id}/submissions/${newest!._id}`;
    for (const answer of [await owner.get(elsewhere), await owner.delete(elsewhere)]) {
      expect([answer.status, answer.body.code]).toEqual([404, 'SUBMISSION_NOT_FOUND']);
    }
    expect((await list()).count).toBe(4);
  });

  it('exports CSV with a column per field name, cells escaped and formulas defused', async () => {
    const answer = await owner.get(`${base}.csv?form=contact&branchId=${world.site.mainBranch}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(answer.headers.get('content-disposition')).toMatch(
      new RegExp(`^attachment; filename="submissions-${world.site.name}-contact-\\d{4}-\\d{2}-\\d{2}\\.csv"$`),
    );
    const [grace, ada] = (await list(`form=contact&branchId=${world.site.mainBranch}`)).items;
    expect(answer.body).toBe(
      'date,branch,form,message,name\r\n' +
        `${grace!.createdAt},main,contact,"say ""hi""\nbye","Grace, H"\r\n` +
        `${ada!.createdAt},main,contact,'=SUM(A1),Ada\r\n`,
    );
    const all = (await owner.get(`${base}.csv`)).body as string;
    expect(all.split('\r\n')[0]).toBe('date,branch,form,email,message,name');
    expect(all).toContain(',preview,contact,,from preview,Linus\r\n');
    expect(all).toContain(',main,mail,visitor@example.com,,\r\n');
    const spam = await owner.get(`${base}.csv?spam=true`);
    expect(spam.headers.get('content-disposition')).toMatch(/-spam-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(spam.body).toContain(',main,contact,,bot\r\n');
  });

  it('deletes a submission without an event, and a deleted site takes its submissions along', async () => {
    const [newest] = (await list('size=1')).items;
    const eventsBefore = await server.app.db.selectFrom('events').select('id').execute();
    expect((await owner.delete(`${base}/${newest!._id}`)).status).toBe(204);
    expect((await owner.get(`${base}/${newest!._id}`)).status).toBe(404);
    expect((await list()).count).toBe(3);
    expect(await server.app.db.selectFrom('events').select('id').execute()).toHaveLength(eventsBefore.length);

    expect((await owner.delete(`/api/v1/sites/${world.site._id}`)).status).toBe(204);
    const left = await server.app.db.selectFrom('form_submissions').select('id').execute();
    expect(left).toEqual([]);
  });
});
