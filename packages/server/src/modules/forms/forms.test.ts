import type { Release, SiteForm, Submission } from '@wharf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../../test/archives.ts';
import { expectStatus, type TestClient } from '../../../test/client.ts';
import { databases, startTestServer, type TestServer } from '../../../test/harness.ts';
import { siteRequest } from '../../../test/siteClient.ts';
import { buildWorld, uploadRelease, type World } from '../../../test/world.ts';

const PLAIN_PAGE = { name: 'index.html', content: '<form method="post" action="/.wharf/forms/contact"></form>' };

/** A Netlify site's pages, as they are: forms marked with its attributes, one with its honeypot. */
const NETLIFY_PAGES = [
  {
    name: 'contact/index.html',
    content: `<!doctype html><html><body>
<form name="contact" method="POST" data-netlify="true" netlify-honeypot="bot-field">
  <p hidden><input name="bot-field"></p><input name="email"><textarea name="message"></textarea>
</form></body></html>`,
  },
  {
    name: 'index.html',
    content: '<FORM Netlify NAME="newsletter"><input name=email></FORM><form name="search"></form>',
  },
  { name: 'quote.htm', content: '<form data-wharf name="quote" data-wharf-honeypot="trap" action="/thanks"></form>' },
  { name: 'thanks.html', content: 'thanks' },
  {
    name: 'bad.html',
    content: '\n\n<form data-netlify="true" name="Sign up!"></form><form data-netlify="false" name="off"></form>',
  },
];

describe.each(databases)('forms of a site on $name', ({ postgres }) => {
  let server: TestServer;
  let world: World;
  let owner: TestClient;
  let port: number;

  const hostOf = (branch = '') => `${branch ? `${branch}.` : ''}${world.site.name}.localhost:${port}`;

  /** Posts as a visitor's browser does, to the branch's own host. */
  const post = (path: string, body: string, branch = '') =>
    siteRequest(port, hostOf(branch), path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', referer: `http://${hostOf(branch)}${path}` },
      body,
    });

  const siteForms = async () =>
    expectStatus(await owner.get(`/api/v1/sites/${world.site._id}/forms`), 200) as SiteForm[];
  /** The forms the releases list shows for the release a branch serves (the list keeps a site's forms in memory). */
  const listedForms = async (branch: string) => {
    const { items } = expectStatus(await owner.get(`/api/v1/sites/${world.site._id}/releases?size=50`), 200) as {
      items: Release[];
    };
    const served = items.find((item) => item.branches.some((serving) => serving.name === branch));
    return served?.forms.map((form) => form.name);
  };
  const submissions = async (query = '') =>
    (
      expectStatus(await owner.get(`/api/v1/sites/${world.site._id}/submissions?size=50&${query}`), 200) as {
        items: Submission[];
      }
    ).items;

  /** An incremental deploy, as `wharf upload` makes one: the manifest, the missing files, then finalise. */
  async function deploy(files: { name: string; content: string }[], branches = ['main']) {
    const manifest = files.map((f) => ({ path: f.name, hash: sha256(f.content), size: Buffer.byteLength(f.content) }));
    const started = expectStatus(
      await owner.post(`/api/v1/sites/${world.site._id}/deploys`, { name: 'inc', branches, files: manifest }),
      200,
    );
    for (const file of files) {
      if (!started.missing.includes(sha256(file.content))) continue;
      const put = await owner.request(
        'PUT',
        `/api/v1/deploys/${started._id}/files/${sha256(file.content)}`,
        Buffer.from(file.content),
        {
          'content-type': 'application/octet-stream',
        },
      );
      expectStatus(put, 204);
    }
    return expectStatus(await owner.post(`/api/v1/deploys/${started._id}/finalize`), 200) as Release;
  }

  beforeAll(async () => {
    server = await startTestServer({ postgres });
    port = Number(new URL(server.url).port);
    world = await buildWorld(server.url);
    owner = world.clients.owner;
  });
  afterAll(() => server?.close());

  it('keeps a form added in the console, and its submissions, through the next deploys', async () => {
    const first = await uploadRelease(owner, world.site._id, 'first', ['main'], [PLAIN_PAGE]);
    expect((await post('/.wharf/forms/contact', 'name=early')).status).toBe(404);
    const saved = expectStatus(
      await owner.put(`/api/v1/releases/${first._id}/forms`, { forms: [{ type: 'db', name: 'contact' }] }),
      200,
    );
    expect(saved.forms).toEqual([{ type: 'db', name: 'contact' }]);
    expect((await post('/.wharf/forms/contact', 'name=Ada')).status).toBe(303);
    await uploadRelease(owner, world.site._id, 'second', ['main'], [PLAIN_PAGE]);
    const third = await deploy([{ ...PLAIN_PAGE, content: `${PLAIN_PAGE.content}<p>3</p>` }]);
    expect(third.forms).toEqual([{ type: 'db', name: 'contact' }]);
    expect((await post('/.wharf/forms/contact', 'name=Grace')).status).toBe(303);
    expect((await submissions('form=contact')).map((s) => s.fields.name)).toEqual(['Grace', 'Ada']);
    expect(await siteForms()).toEqual([{ type: 'db', name: 'contact', branches: null, detected: false }]);
  });

  it("finds a Netlify site's forms in its HTML at upload, and takes posts the way Netlify does", async () => {
    const release = await uploadRelease(owner, world.site._id, 'netlify', ['main'], NETLIFY_PAGES);
    const detected = (await siteForms()).filter((form) => form.detected);
    expect(detected).toEqual([
      { type: 'db', name: 'newsletter', branches: null, detected: true },
      { type: 'db', name: 'quote', honeypot: 'trap', branches: null, detected: true },
    ]);
    expect(release.ruleProblems).toEqual([
      {
        file: 'bad.html',
        line: 3,
        severity: 'warning',
        message: 'The form "Sign up!" is not collected: a form name has only letters, digits, hyphens and underscores',
      },
    ]);
    // contact existed (declared in the console): it stays as people made it, with the page's honeypot.
    expect((await siteForms())[0]).toEqual({
      type: 'db',
      name: 'contact',
      honeypot: 'bot-field',
      branches: null,
      detected: false,
    });
    const contactPage = await post('/contact/', 'form-name=contact&email=a%40example.com&message=hi&bot-field=');
    expect([contactPage.status, contactPage.headers.location]).toEqual([303, '/contact/']);
    expect((await post('/', 'form-name=newsletter&email=b%40example.com')).status).toBe(303);
    expect((await post('/.wharf/forms/quote', 'text=please')).status).toBe(303);
    expect((await post('/', 'form-name=nothing&email=c%40example.com')).status).toBe(404);
    expect((await post('/', 'email=d%40example.com')).status).toBe(405);
    const inbox = await submissions();
    expect(inbox.slice(0, 3).map((s) => [s.form, s.fields])).toEqual([
      ['quote', { text: 'please' }],
      ['newsletter', { email: 'b@example.com' }],
      ['contact', { email: 'a@example.com', message: 'hi' }],
    ]);
  });

  it("sends the visitor to the page posted to, the form's action naming its success page as on Netlify", async () => {
    const thanks = await siteRequest(port, hostOf(), '/thanks?from=quote', {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=x', referer: `http://${hostOf()}/quote.htm` },
      body: '--x\r\nContent-Disposition: form-data; name="form-name"\r\n\r\nquote\r\n--x--\r\n',
    });
    expect([thanks.status, thanks.headers.location]).toEqual([303, '/thanks?from=quote']);
    for (const path of ['//evil.example/', '/\\evil.example/']) {
      const away = await post(path, 'form-name=quote&text=x');
      expect([away.status, away.headers.location]).toEqual([303, '/']);
    }
    const next = await post('/thanks', 'form-name=quote&_next=%2Fquote.htm%3Fsent');
    expect(next.headers.location).toBe('/quote.htm?sent');
  });

  it('keeps a post that fills the honeypot out of the inbox, while answering it as any other', async () => {
    const before = (await submissions()).length;
    const caught = await post('/contact/', 'form-name=contact&email=bot%40example.com&bot-field=spam');
    expect(caught.status).toBe(303);
    expect((await post('/quote.htm', 'form-name=quote&text=buy&trap=1')).status).toBe(303);
    expect(await submissions()).toHaveLength(before);
    const spam = await submissions('spam=true');
    expect(spam.slice(0, 2).map((s) => [s.form, s.fields])).toEqual([
      ['quote', { text: 'buy' }],
      ['contact', { email: 'bot@example.com' }],
    ]);
  });

  it('finds forms in the pages of an incremental deploy (again those people removed), and never removes nor changes those they declared', async () => {
    const set = await owner.put(`/api/v1/sites/${world.site._id}/forms`, {
      forms: [
        { type: 'email', name: 'contact', recipient: 'team@example.com' },
        { type: 'db', name: 'newsletter' },
      ],
    });
    expect(expectStatus(set, 200).map((form: SiteForm) => [form.name, form.detected])).toEqual([
      ['contact', false],
      ['newsletter', true],
    ]);
    await deploy([...NETLIFY_PAGES, { name: 'join.html', content: '<form data-wharf="" name="join"></form>' }]);
    expect((await siteForms()).map((form) => [form.name, form.type, form.detected])).toEqual([
      ['contact', 'email', false],
      ['newsletter', 'db', true],
      ['join', 'db', true],
      ['quote', 'db', true],
    ]);
    await deploy([PLAIN_PAGE]);
    expect((await siteForms()).map((form) => form.name)).toEqual(['contact', 'newsletter', 'join', 'quote']);
    expect((await post('/.wharf/forms/join', 'a=1')).status).toBe(303);
  });

  it('narrows a form to branches: the others answer 404 to its posts', async () => {
    const preview = (await deploy([PLAIN_PAGE], ['preview'])) as Release & { deployedBranches: { _id: string }[] };
    const previewId = preview.deployedBranches[0]!._id;
    const forms = (await siteForms()).map(({ detected: _d, ...form }) => form);
    const narrowed = forms.map((form) => (form.name === 'join' ? { ...form, branches: [previewId] } : form));
    expect(await listedForms('main')).toContain('join');
    expectStatus(await owner.put(`/api/v1/sites/${world.site._id}/forms`, { forms: narrowed }), 200);
    expect(await listedForms('main')).not.toContain('join');
    expect(await listedForms('preview')).toContain('join');
    expect((await post('/.wharf/forms/join', 'a=1')).status).toBe(404);
    expect((await post('/.wharf/forms/join', 'a=2', 'preview')).status).toBe(303);
    const mainForms = expectStatus(
      await owner.get(`/api/v1/sites/${world.site._id}/branches/${world.site.mainBranch}/forms`),
      200,
    );
    expect(mainForms.map((form: SiteForm) => form.name)).not.toContain('join');
    // The release's call sets the forms as its branch sees them: the preview drops join, which leaves the site.
    const seen = preview.forms.filter((form) => form.name !== 'join');
    const after = expectStatus(await owner.put(`/api/v1/releases/${preview._id}/forms`, { forms: seen }), 200);
    expect(after.forms.map((form: { name: string }) => form.name)).toEqual(['contact', 'newsletter', 'quote']);
    expect((await siteForms()).map((form) => form.name)).toEqual(['contact', 'newsletter', 'quote']);
    expect(await listedForms('preview')).toEqual(['contact', 'newsletter', 'quote']);
  });

  it('refuses a narrowing to no branch or to a branch of another site, and forgets a deleted branch', async () => {
    const path = `/api/v1/sites/${world.site._id}/forms`;
    const before = await siteForms();
    for (const [branches, field] of [
      [[], 'forms.0.branches'],
      [[world.site.mainBranch, 'not-a-branch'], 'forms.0.branches.1'],
    ] as const) {
      const refused = await owner.put(path, { forms: [{ type: 'db', name: 'narrow', branches }] });
      expect([refused.status, refused.body.code, refused.body.details[0].field]).toEqual([
        400,
        'VALIDATION_FAILED',
        field,
      ]);
    }
    expect(await siteForms()).toEqual(before);
    const gone = (await deploy([PLAIN_PAGE], ['gone'])) as Release & { deployedBranches: { _id: string }[] };
    const goneId = gone.deployedBranches[0]!._id;
    const narrowed = [
      ...before.map(({ detected: _d, ...form }) => form),
      { type: 'db', name: 'only_gone', branches: [goneId] },
      { type: 'db', name: 'both', branches: [goneId, world.site.mainBranch] },
    ];
    expectStatus(await owner.put(path, { forms: narrowed }), 200);
    expectStatus(await owner.delete(`/api/v1/sites/${world.site._id}/branches/${goneId}`), 204);
    const after = await siteForms();
    expect(after.find((form) => form.name === 'only_gone')).toBeUndefined();
    expect(after.find((form) => form.name === 'both')?.branches).toEqual([world.site.mainBranch]);
  });

  it('reports the mistakes of .wharf.yml with their lines, and applies the rest', async () => {
    const config = 'forms:\n  - name: feedback\n    type: db\n  - name: orders\n    type: email\n    recipient: nope\n';
    const release = await uploadRelease(
      owner,
      world.site._id,
      'config',
      ['main'],
      [PLAIN_PAGE, { name: '.wharf.yml', content: config }],
    );
    expect(release.ruleProblems).toEqual([
      { file: '.wharf.yml', line: 6, severity: 'error', message: 'forms.1.recipient: Invalid email' },
    ]);
    expect((await siteForms()).map((form) => form.name)).toContain('feedback');
    expect((await siteForms()).map((form) => form.name)).not.toContain('orders');
  });

  it("takes a Netlify form named as a slug (contact-form) as it is, and keeps spec.md's pattern for names people type", async () => {
    const page = {
      name: 'contact-us.html',
      content:
        '<form data-netlify="true" name="contact-form" netlify-honeypot="bot-field"><input name="bot-field"><input name="email"></form>',
    };
    const release = await uploadRelease(owner, world.site._id, 'slug', ['main'], [page]);
    expect(release.ruleProblems).toEqual([]);
    expect((await siteForms()).find((form) => form.name === 'contact-form')).toEqual({
      type: 'db',
      name: 'contact-form',
      honeypot: 'bot-field',
      branches: null,
      detected: true,
    });
    const onPage = await post('/contact-us.html', 'form-name=contact-form&email=a%40example.com&bot-field=');
    expect([onPage.status, onPage.headers.location]).toEqual([303, '/contact-us.html']);
    expect((await post('/.wharf/forms/contact-form', 'email=b%40example.com')).status).toBe(303);
    expect((await submissions('form=contact-form')).map((s) => [s.form, s.fields])).toEqual([
      ['contact-form', { email: 'b@example.com' }],
      ['contact-form', { email: 'a@example.com' }],
    ]);

    // The console saves the whole list: the detected name goes back as it came, changed or not.
    const path = `/api/v1/sites/${world.site._id}/forms`;
    const listed = (await siteForms()).map(({ detected: _d, ...form }) => form);
    expectStatus(await owner.put(path, { forms: [...listed, { type: 'db', name: 'feedback_two' }] }), 200);
    const mailed = [
      { type: 'email', name: 'contact-form', honeypot: 'bot-field', recipient: 'team@example.com', branches: null },
    ];
    expectStatus(await owner.put(path, { forms: mailed }), 200);
    expectStatus(await owner.put(path, { forms: mailed }), 200);
    expect((await siteForms()).map((form) => [form.name, form.type, form.detected])).toEqual([
      ['contact-form', 'email', false],
    ]);

    // A name people type in follows spec.md §5, on both calls that save forms; nothing changes.
    const before = await siteForms();
    const typed = [...mailed, { type: 'db', name: 'sign-up' }];
    const refused = await owner.put(path, { forms: typed });
    expect([refused.status, refused.body.code, refused.body.details]).toEqual([
      400,
      'VALIDATION_FAILED',
      [{ field: 'forms.1.name', message: 'Must match ^[A-Za-z_]+$' }],
    ]);
    const byRelease = await owner.put(`/api/v1/releases/${release._id}/forms`, {
      forms: [
        { type: 'db', name: 'contact-form' },
        { type: 'db', name: 'newsletter2' },
      ],
    });
    expect([byRelease.status, byRelease.body.details]).toEqual([
      400,
      [{ field: 'forms.1.name', message: 'Must match ^[A-Za-z_]+$' }],
    ]);
    expect(await siteForms()).toEqual(before);
    const kept = await owner.put(`/api/v1/releases/${release._id}/forms`, {
      forms: [{ type: 'db', name: 'contact-form' }],
    });
    expect(expectStatus(kept, 200).forms).toEqual([{ type: 'db', name: 'contact-form' }]);
  });

  it('keeps the stored submissions readable whatever becomes of their forms', async () => {
    const all = await submissions();
    expectStatus(await owner.put(`/api/v1/sites/${world.site._id}/forms`, { forms: [] }), 200);
    expect(await submissions()).toEqual(all);
    expect((await post('/.wharf/forms/contact', 'name=late')).status).toBe(404);
  });
});
