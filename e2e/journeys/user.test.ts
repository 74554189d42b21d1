import { expectStatus, signedIn } from '@wharf/server/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeInBrowser } from '../support/browser.ts';
import {
  expectHidden,
  expectPath,
  expectVisible,
  fieldError,
  openStage,
  type Stage,
  snap,
  visit,
} from '../support/journey.ts';

describeInBrowser('user settings (/user)', () => {
  let stage: Stage;
  beforeAll(async () => {
    stage = await openStage();
  });
  afterAll(() => stage?.close());

  it('creates an API token with scopes chosen per group and per endpoint', async () => {
    const { context, page } = await visit(stage, { user: 'teammate', orgId: stage.world.org._id });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto('/user');
    await expectPath(page, '/user/api-tokens');
    await expectVisible(page.getByText('No tokens'));
    await snap(page, 'api-tokens-empty');
    await page.getByRole('link', { name: 'Add token' }).click();
    await expectPath(page, '/user/api-tokens/add');

    await page.getByRole('button', { name: 'Create token' }).click();
    await expect.poll(() => fieldError(page, 'Name').textContent()).toBe('Input is required');
    await page.getByRole('textbox', { name: /^Name/ }).fill('t'.repeat(1001));
    await page.getByRole('button', { name: 'Create token' }).click();
    await expect.poll(() => fieldError(page, 'Name').textContent()).toBe('Max length is 1000');
    await page.getByRole('textbox', { name: /^Name/ }).fill('CI deploys');

    // A whole group at once, then one endpoint of another.
    await page.getByRole('checkbox', { name: 'All Releases scopes' }).check();
    await expectVisible(page.getByText(/^(\d+) of \1 scopes$/));
    await page.getByRole('button', { name: 'Organizations' }).click();
    const readOrg = page.getByRole('checkbox', { name: 'GET /api/v1/orgs/:orgId', exact: true });
    await readOrg.check();
    expect(
      await page
        .getByRole('checkbox', { name: 'All Organizations scopes' })
        .evaluate((box) => (box as { indeterminate: boolean }).indeterminate),
    ).toBe(true);

    // Method badges by color; endpoints without a scope cannot be chosen.
    const badge = (method: string) =>
      page.locator('.mantine-Badge-root', { hasText: new RegExp(`^${method}$`) }).first();
    for (const [method, color] of [
      ['get', 'green'],
      ['post', 'blue'],
      ['put', 'info'],
      ['delete', 'red'],
    ] as const)
      await expect.poll(() => badge(method).getAttribute('style')).toContain(`--mantine-color-${color}-filled`);
    await page.getByRole('button', { name: 'Not available to tokens' }).click();
    await expect
      .poll(() => page.getByRole('checkbox', { name: 'GET /api/v1/api-tokens', exact: true }).isDisabled())
      .toBe(true);

    await page.getByLabel('Activates at').click();
    await page.getByRole('button', { name: 'In 1 hour' }).click();
    await page.keyboard.press('Escape');
    await snap(page, 'api-token-add');
    await page.getByRole('button', { name: 'Create token' }).click();

    await page.waitForURL(/\/user\/api-tokens\/(?!add)[^/]+$/);
    await expectVisible(page.getByRole('heading', { name: 'CI deploys' }));
    await expectVisible(page.getByText('Activates in 1 hour'));
    const value = page.getByLabel('Token value', { exact: true });
    await expect.poll(() => value.evaluate((element) => getComputedStyle(element).filter)).toContain('blur');
    await page.getByRole('button', { name: 'Copy the token value' }).click();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(await value.textContent());
    await snap(page, 'api-token');

    const teammate = await signedIn(stage.server.url, 'teammate');
    const [stored] = expectStatus(await teammate.get('/api/v1/api-tokens'), 200);
    expect(stored.scopes).toContain('org_read');
    expect(stored.scopes).toContain('release_read');
    await context.close();
  });

  it('edits a token, Save disabled until changed, and shows when an active one expires', async () => {
    const teammate = await signedIn(stage.server.url, 'teammate');
    const expiresAt = new Date(Date.now() + 20 * 24 * 3600 * 1000).toISOString();
    const token = expectStatus(
      await teammate.post('/api/v1/api-tokens', { name: 'Backups', expiresAt, scopes: ['site_read'] }),
      200,
    );
    const { context, page } = await visit(stage, { user: 'teammate', orgId: stage.world.org._id });
    await page.goto('/user/api-tokens');
    const row = page.getByRole('link', { name: /^Backups/ });
    await expectVisible(row.getByText('active', { exact: true }));
    await expectVisible(row.getByText('expires in 20 days'));
    await snap(page, 'api-tokens');
    await row.click();
    await expectPath(page, `/user/api-tokens/${token._id}`);
    const save = page.getByRole('button', { name: 'Save' });
    await expect.poll(() => save.isDisabled()).toBe(true);
    await page.getByRole('textbox', { name: /^Name/ }).fill('Nightly backups');
    await expect.poll(() => save.isDisabled()).toBe(false);
    await save.click();
    await expectVisible(page.getByRole('heading', { name: 'Nightly backups' }));
    await expect.poll(() => save.isDisabled()).toBe(true);
    expect(expectStatus(await teammate.get(`/api/v1/api-tokens/${token._id}`), 200).name).toBe('Nightly backups');
    await context.close();
  });

  it('deletes a token after confirmation', async () => {
    const teammate = await signedIn(stage.server.url, 'teammate');
    const token = expectStatus(await teammate.post('/api/v1/api-tokens', { name: 'Throwaway', scopes: [] }), 200);
    const { context, page } = await visit(stage, { user: 'teammate', orgId: stage.world.org._id });
    await page.goto(`/user/api-tokens/${token._id}`);
    await page.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete token' });
    await expectVisible(dialog);
    await snap(page, 'api-token-delete');
    await dialog.getByRole('button', { name: 'Delete token' }).click();
    await expectPath(page, '/user/api-tokens');
    await expectHidden(page.getByRole('link', { name: /^Throwaway/ }));
    expect((await teammate.get(`/api/v1/api-tokens/${token._id}`)).status).toBe(404);
    await context.close();
  });

  it('disconnects from all devices', async () => {
    const other = await visit(stage, { user: 'joiner' });
    const { context, page } = await visit(stage, { user: 'joiner' });
    await page.goto('/user/security');
    await expectVisible(page.getByRole('tab', { name: 'Security', selected: true }));
    await snap(page, 'user-security');
    await page.getByRole('button', { name: 'Disconnect from all devices' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Disconnect' }).click();
    await expectPath(page, '/login');
    await other.page.goto('/user');
    await expectPath(other.page, '/login');
    await Promise.all([context.close(), other.context.close()]);
  });
});
