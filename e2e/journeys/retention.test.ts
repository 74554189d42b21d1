import { expectStatus, tarGz, uploadForm, uploadRelease } from '@wharf/server/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeInBrowser } from '../support/browser.ts';
import { expectVisible, fieldError, openStage, type Stage, snap, toast, visit } from '../support/journey.ts';

describeInBrowser("a site's retention (/sites/{siteId}/settings) and its expiring branches", () => {
  let stage: Stage;
  beforeAll(async () => {
    stage = await openStage();
  });
  afterAll(() => stage?.close());

  it('shows the disk the site takes, and saves how long unserved releases stay', async () => {
    const { owner } = stage.world.clients;
    const site = expectStatus(
      await owner.post(`/api/v1/teams/${stage.world.team._id}/sites`, { name: stage.world.unique('kept') }),
      200,
    );
    await uploadRelease(owner, site._id, 'first', ['main']);
    await uploadRelease(owner, site._id, 'second', ['main']);
    const usage = expectStatus(await owner.get(`/api/v1/sites/${site._id}/usage`), 200);

    const { context, page } = await visit(stage, { user: 'teammate', orgId: stage.world.org._id });
    await page.goto(`/sites/${site._id}/settings`);
    const card = page.locator('form').filter({ has: page.getByRole('heading', { name: 'Retention' }) });
    await expectVisible(card.getByText(`${usage.files} distinct files`, { exact: false }));
    await expectVisible(card.getByText('in 2 releases', { exact: false }));
    const days = card.getByRole('textbox', { name: 'Keep for (days)' });
    const count = card.getByRole('textbox', { name: 'Keep the newest (releases)' });
    await expect.poll(() => days.inputValue()).toBe('30');
    await expect.poll(() => count.inputValue()).toBe('100');

    await days.fill('0');
    await card.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => fieldError(card, 'Keep for (days)').textContent()).toBe('Must be at least 1');
    await days.fill('');
    await count.fill('5');
    await snap(page, 'site-settings-retention');
    await card.getByRole('button', { name: 'Save' }).click();
    await expectVisible(toast(page, 'Site saved'));
    const saved = expectStatus(await owner.get(`/api/v1/sites/${site._id}`), 200);
    expect(saved.retention).toEqual({ keepReleasesDays: null, keepReleasesCount: 5 });
    await page.reload();
    await expect.poll(() => count.inputValue()).toBe('5');
    await expect.poll(() => days.inputValue()).toBe('');
    await context.close();
  });

  it('tells in the branch list when a preview branch expires', async () => {
    const { owner } = stage.world.clients;
    const form = uploadForm(await tarGz([{ name: 'index.html', content: '<p>preview</p>' }]), 'preview', ['pr-12']);
    form.append('expires', '14d');
    expectStatus(await owner.request('POST', `/api/v1/sites/${stage.world.site._id}/releases`, form), 200);
    const { context, page } = await visit(stage, { user: 'teammate', orgId: stage.world.org._id });
    await page.goto(`/sites/${stage.world.site._id}/branches`);
    const row = page.getByRole('link', { name: 'Branch pr-12' }).locator('..');
    await expectVisible(row.getByText('Expires in 14 days'));
    await snap(page, 'branches-expiring');
    await context.close();
  });
});
