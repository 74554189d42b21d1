import { expectStatus, signedIn } from '@wharf/server/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeInBrowser } from '../support/browser.ts';
import { expectPath, expectVisible, fieldError, openStage, type Stage, snap, visit } from '../support/journey.ts';

describeInBrowser('organizations (/orgs)', () => {
  let stage: Stage;
  beforeAll(async () => {
    stage = await openStage();
  });
  afterAll(() => stage?.close());

  it('shows a new user that there is no organization yet', async () => {
    const { context, page } = await visit(stage, { user: 'joiner' });
    await page.goto('/orgs');
    await expectVisible(page.getByRole('heading', { name: 'Organization' }));
    await expectVisible(page.getByText('Select an organization'));
    await expectVisible(page.getByText('No organizations'));
    await snap(page, 'orgs-empty');
    await context.close();
  });

  it('lists the organizations sorted by name', async () => {
    const teammate = await signedIn(stage.server.url, 'teammate');
    for (const name of ['Zephyr', 'beta', 'Alpha']) expectStatus(await teammate.post('/api/v1/orgs', { name }), 200);
    const { context, page } = await visit(stage, { user: 'teammate' });
    await page.goto('/orgs');
    await expectVisible(page.getByRole('button', { name: 'Select Zephyr' }));
    const rows = await page.getByRole('button', { name: /^Select / }).all();
    const names = await Promise.all(rows.map((row) => row.getAttribute('aria-label')));
    expect(names).toEqual(['Select Acme', 'Select Alpha', 'Select beta', 'Select Zephyr']);
    await snap(page, 'orgs');
    await context.close();
  });

  it('creates an organization in the Create org modal, which becomes the current one', async () => {
    const { context, page } = await visit(stage, { user: 'outsider' });
    await page.goto('/orgs');
    await page.getByRole('button', { name: 'Add org' }).click();
    const modal = page.getByRole('dialog', { name: 'Create org' });
    await expectVisible(modal);
    await modal.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => fieldError(page, 'Name').textContent()).toBe('Input is required');
    await modal.getByLabel('Name').fill('n'.repeat(1001));
    await modal.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => fieldError(page, 'Name').textContent()).toBe('Max length is 1000');
    await snap(page, 'orgs-create');
    await modal.getByLabel('Name').fill('Harbour Works');
    await modal.getByRole('button', { name: 'Create' }).click();
    await expectPath(page, '/');
    await expectVisible(page.getByRole('heading', { name: 'Teams' }));
    await expectVisible(page.getByRole('banner').getByText('Harbour Works'));
    const stored = await page.evaluate(() => localStorage.getItem('wharf.currentOrg'));
    expect(stored).toBeTruthy();
    await page.reload();
    await expectVisible(page.getByRole('banner').getByText('Harbour Works'));
    await context.close();
  });
});
