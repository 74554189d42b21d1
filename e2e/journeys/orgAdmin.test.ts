import { SEARCH_DEBOUNCE_MS } from '@wharf/contract';
import { expectStatus, joinOrg, PNG, signedIn } from '@wharf/server/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeInBrowser } from '../support/browser.ts';
import {
  expectHidden,
  expectPath,
  expectVisible,
  failureToast,
  fieldError,
  openStage,
  type Stage,
  snap,
  toast,
  visit,
} from '../support/journey.ts';

describeInBrowser('organization admin (/org)', () => {
  let stage: Stage;
  beforeAll(async () => {
    stage = await openStage();
  });
  afterAll(() => stage?.close());

  it('edits the general settings, Save disabled until something changed', async () => {
    const { context, page } = await visit(stage, { user: 'admin', orgId: stage.world.org._id });
    await page.goto('/org');
    await expectPath(page, '/org/settings');
    const save = page.getByRole('button', { name: 'Save' });
    await expectVisible(page.getByRole('heading', { name: 'General settings' }));
    await snap(page, 'org-settings');
    await expect.poll(() => save.isDisabled()).toBe(true);
    await page.getByLabel('Name').fill('');
    await expect.poll(() => save.isDisabled()).toBe(false);
    await save.click();
    await expect.poll(() => fieldError(page, 'Name').textContent()).toBe('Input is required');
    await page.getByLabel('Name').fill('y'.repeat(1001));
    await save.click();
    await expect.poll(() => fieldError(page, 'Name').textContent()).toBe('Max length is 1000');
    await page.getByLabel('Name').fill('Acme Corp');
    await page.getByLabel('Color').fill('#ZZZ');
    await save.click();
    await expect.poll(() => fieldError(page, 'Color').textContent()).toBe('Must match ^#[0-9a-f]{6}$');
    await page.getByLabel('Color').fill('#1c7ed6');
    await page.getByLabel('Color').press('Enter');
    await expectVisible(toast(page, 'Org saved'));
    await expect.poll(() => save.isDisabled()).toBe(true);
    await expectVisible(page.getByRole('banner').getByText('Acme Corp'));
    const owner = await signedIn(stage.server.url, 'owner');
    const org = expectStatus(await owner.get(`/api/v1/orgs/${stage.world.org._id}`), 200);
    expect(org).toMatchObject({ name: 'Acme Corp', color: '#1c7ed6' });
    await context.close();
  });

  it('uploads and removes the logo', async () => {
    const { context, page } = await visit(stage, { user: 'owner', orgId: stage.world.org._id });
    await page.goto('/org/settings');
    await page.locator('input[type=file]').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
    await expectVisible(page.getByRole('button', { name: 'Remove' }));
    await expectVisible(page.getByRole('main').getByRole('img', { name: /^Logo of / }));
    await snap(page, 'org-settings-logo');
    await page.getByRole('button', { name: 'Remove' }).click();
    await expectHidden(page.getByRole('button', { name: 'Remove' }));
    await page.locator('input[type=file]').setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('not an image'),
    });
    await expectVisible(failureToast(page, 'upload logo', 'The logo must be one PNG, JPEG, WebP or GIF image'));
    await context.close();
  });

  it('invites someone, with every validation message, and deletes the invitation', async () => {
    const { context, page } = await visit(stage, { user: 'admin', orgId: stage.world.org._id });
    await page.goto('/org/staff');
    await expectVisible(page.getByRole('heading', { name: 'Invites' }));
    await page.getByRole('button', { name: 'Add invite' }).click();
    const modal = page.getByRole('dialog', { name: 'Invite someone' });
    // This server has no SMTP_URL: the modal says so before anything is sent.
    await expectVisible(modal.getByRole('alert').filter({ hasText: 'Mail is off on this server' }));
    await expectVisible(modal.getByText(/send the invitation link yourself/));
    await snap(page, 'org-invite-mail-off');
    await modal.getByRole('button', { name: 'Invite' }).click();
    await expect.poll(() => fieldError(modal, 'Email').textContent()).toBe('Input is required');
    await modal.getByLabel('Email').fill('not-an-email');
    await modal.getByRole('button', { name: 'Invite' }).click();
    await expect.poll(() => fieldError(modal, 'Email').textContent()).toBe('Invalid email');
    await modal.getByLabel('Email').fill(`${'e'.repeat(1000)}@example.com`);
    await modal.getByRole('button', { name: 'Invite' }).click();
    await expect.poll(() => fieldError(modal, 'Email').textContent()).toBe('Max length is 1000');
    await modal.getByLabel('Email').fill('new.person@example.com');
    await modal.getByRole('switch', { name: 'Admin' }).check({ force: true });
    await modal.getByRole('button', { name: 'Invite' }).click();
    const created = page.getByRole('dialog', { name: 'Invitation created' });
    await expectVisible(created);
    await expect.poll(() => created.getByLabel('Invite link').inputValue()).toMatch(/\/invite\?token=/);
    await expectVisible(
      created.getByText('Mail is off on this server: send this link to new.person@example.com yourself.', {
        exact: false,
      }),
    );
    await snap(page, 'org-invite-created');
    await created.getByRole('button', { name: 'Done' }).click();

    const row = page.getByLabel('Invitation of new.person@example.com');
    await expectVisible(row);
    await expectVisible(row.getByText('admin'));
    await expectVisible(row.getByText('Expires in 7 days'));
    await snap(page, 'org-staff');
    await row.getByRole('button', { name: 'Delete the invitation of new.person@example.com' }).click();
    await expectHidden(row);
    await context.close();
  });

  it('searches members from 3 characters and shows their badges', async () => {
    const { context, page } = await visit(stage, { user: 'admin', orgId: stage.world.org._id });
    const searches: (string | null)[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.endsWith('/members')) searches.push(url.searchParams.get('search'));
    });
    // The page's timers run on a clock this test can move on, so that a debounce can be seen to have passed.
    await page.clock.install();
    await page.goto('/org/staff');
    const members = page.getByRole('heading', { name: 'Members' });
    await expectVisible(members);
    await expectVisible(page.getByLabel('Member owner'));
    await expectVisible(page.getByLabel('Member owner').getByText('owner', { exact: true }));
    await expectVisible(page.getByLabel('Member admin').getByText('you'));
    await expectVisible(page.getByLabel('Member admin').getByText('admin', { exact: true }));
    expect(await page.getByRole('switch').count()).toBe(0);
    const before = searches.length;
    await page.getByLabel('Search members').fill('te');
    await expectVisible(page.getByText('Search needs at least 3 characters'));
    await page.clock.runFor(SEARCH_DEBOUNCE_MS);
    await expect.poll(() => page.getByLabel(/^Member /).count()).toBe(4);
    const sent = page.waitForRequest((request) => new URL(request.url()).searchParams.get('search') === 'teammate');
    await page.getByLabel('Search members').fill('teammate');
    await sent;
    // A search for 'te', its debounce passed, would have gone out before this one.
    expect(searches.slice(before)).toEqual(['teammate']);
    await expectHidden(page.getByLabel('Member owner'));
    await expect.poll(() => page.getByLabel(/^Member /).count()).toBe(1);
    await page.getByLabel('Search members').fill('nobody-here');
    await expectVisible(page.getByText('No results'));
    await context.close();
  });

  it("lets the owner toggle a member's admin right and remove a member, never the owner", async () => {
    const owner = await signedIn(stage.server.url, 'owner');
    const joiner = await signedIn(stage.server.url, 'joiner');
    const joinerId = await joinOrg(owner, stage.world.org._id, joiner);
    const { context, page } = await visit(stage, { user: 'owner', orgId: stage.world.org._id });
    await page.goto('/org/staff');
    await expectVisible(page.getByLabel('Member joiner'));
    expect(await page.getByLabel('Member owner').getByRole('switch').count()).toBe(0);
    expect(await page.getByLabel('Member owner').getByRole('button').count()).toBe(0);

    // The switch shows the new state once the mutation's state reaches React, a tick after the
    // click: `check()` would read it too early, so click and wait for what the page then shows.
    const adminSwitch = page.getByRole('switch', { name: 'Admin rights of joiner' });
    await adminSwitch.click({ force: true });
    await expect.poll(() => adminSwitch.isChecked()).toBe(true);
    await expectVisible(page.getByLabel('Member joiner').getByText('admin', { exact: true }));
    const members = expectStatus(await owner.get(`/api/v1/orgs/${stage.world.org._id}/members?search=joiner`), 200);
    expect(members.items[0]).toMatchObject({ _id: joinerId, admin: true });

    await page.getByRole('button', { name: 'Remove joiner' }).click();
    await snap(page, 'org-remove-member');
    await page.getByRole('dialog', { name: 'Remove member' }).getByRole('button', { name: 'Remove' }).click();
    await expectHidden(page.getByLabel('Member joiner'));
    await context.close();
  });

  it('says in a toast when a call fails: toggling a member who has just left', async () => {
    const owner = await signedIn(stage.server.url, 'owner');
    const joiner = await signedIn(stage.server.url, 'joiner');
    const joinerId = await joinOrg(owner, stage.world.org._id, joiner);
    const { context, page } = await visit(stage, { user: 'owner', orgId: stage.world.org._id });
    // Without real-time, the page keeps showing the member who left: the console's WebSocket (its
    // only transport) never reaches the server.
    await page.routeWebSocket('**/socket.io/**', (socket) => socket.close());
    await page.goto('/org/staff');
    await expectVisible(page.getByLabel('Member joiner'));
    expectStatus(await joiner.delete(`/api/v1/members/${joinerId}`), 204);
    await page.getByRole('switch', { name: 'Admin rights of joiner' }).click({ force: true });
    await expectVisible(failureToast(page, 'toggle admin'));
    await snap(page, 'error-toast');
    await context.close();
  });
});
