import { readFile } from 'node:fs/promises';
import { expectStatus, uploadRelease } from '@wharf/server/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeInBrowser } from '../support/browser.ts';
import { expectHidden, expectPath, expectVisible, openStage, type Stage, snap, visit } from '../support/journey.ts';

/** A page with a form for people, and one a bot fills in: it sets the hidden honeypot field. */
const CONTACT_PAGE = `<!doctype html><title>Contact</title>
<form method="post" action="/.wharf/forms/contact">
  <label>Name <input name="name"></label>
  <label>Message <textarea name="message"></textarea></label>
  <button>Send</button>
</form>
<form method="post" action="/.wharf/forms/contact">
  <input type="hidden" name="name" value="Spam bot">
  <input type="hidden" name="_gotcha" value="filled">
  <button>Send as a bot</button>
</form>`;
const FILES = [
  { name: 'index.html', content: CONTACT_PAGE },
  { name: '.wharf.yml', content: 'forms:\n  - name: contact\n    type: db\n' },
];

describeInBrowser('form submissions: inbox, spam, export and delete', () => {
  let stage: Stage;
  let site: { _id: string; name: string; url: string; mainBranch: string };
  beforeAll(async () => {
    stage = await openStage();
    const { owner } = stage.world.clients;
    site = expectStatus(
      await owner.post(`/api/v1/teams/${stage.world.team._id}/sites`, { name: stage.world.unique('contact') }),
      200,
    );
    await uploadRelease(owner, site._id, 'v1', ['main'], FILES);
  });
  afterAll(() => stage?.close());

  it('shows what visitors post, keeps the spam apart, exports CSV and deletes', async () => {
    const visitor = await visit(stage);
    await visitor.page.goto(site.url);
    await visitor.page.getByLabel('Name').fill('Ada Lovelace');
    await visitor.page.getByLabel('Message').fill('=1+1 is two');
    for (const button of ['Send', 'Send as a bot']) {
      const posted = visitor.page.waitForResponse((answer) => answer.url().includes('/.wharf/forms/contact'));
      await visitor.page.getByRole('button', { name: button, exact: true }).click();
      expect((await posted).status()).toBe(303);
      await visitor.page.waitForLoadState();
    }
    await visitor.context.close();

    const { context, page } = await visit(stage, { user: 'teammate', orgId: stage.world.org._id });
    await page.goto(`/sites/${site._id}/branches/${site.mainBranch}/forms`);
    const rows = page.getByLabel('Submission of contact', { exact: true });
    await expectVisible(rows.getByText('Ada Lovelace'));
    expect(await rows.count()).toBe(1);
    await expectVisible(rows.getByText('=1+1 is two'));
    await expectVisible(page.getByText('1 of 1 submission'));
    await snap(page, 'submissions-branch');

    await page.getByText('Spam', { exact: true }).click();
    await expectVisible(rows.getByText('Spam bot'));
    await expectHidden(rows.getByText('Ada Lovelace'));
    await snap(page, 'submissions-spam');
    await page.getByText('Inbox', { exact: true }).click();
    await expectVisible(rows.getByText('Ada Lovelace'));

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^submissions-${site.name}-\\d{4}-\\d{2}-\\d{2}\\.csv$`));
    const csv = await readFile((await download.path())!, 'utf8');
    const [header, row, end] = csv.split('\r\n');
    expect(header).toBe('date,branch,form,message,name');
    expect(row).toMatch(/^\d{4}-\d{2}-\d{2}T[\d:.]+Z,main,contact,'=1\+1 is two,Ada Lovelace$/);
    expect(end).toBe('');

    await page.getByRole('tab', { name: 'Submissions' }).click();
    await expectPath(page, `/sites/${site._id}/submissions`);
    await expectVisible(rows.getByLabel('Branch').getByText('main'));
    await snap(page, 'submissions-site');
    await rows.getByRole('button', { name: 'Delete submission of contact' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete submission' });
    await dialog.getByRole('button', { name: 'Delete submission' }).click();
    await expectVisible(page.getByText('No submissions'));
    await expectVisible(page.getByText('<form method="post" action="/.wharf/forms/NAME">'));
    await snap(page, 'submissions-empty');
    await context.close();
  });
});
