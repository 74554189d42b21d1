import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeInBrowser } from '../support/browser.ts';
import { expectPath, expectVisible, fieldError, openStage, type Stage, snap, visit } from '../support/journey.ts';

describeInBrowser('sign-in (/login)', () => {
  let stage: Stage;
  beforeAll(async () => {
    stage = await openStage();
  });
  afterAll(() => stage?.close());

  it('shows the title, the tagline and the in-memory form, and validates it', async () => {
    const { context, page } = await visit(stage);
    await page.goto('/login');
    await expectVisible(page.getByRole('heading', { name: 'Shipping frontend' }));
    await expectVisible(page.getByText('Deploy, now.'));
    await snap(page, 'login');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => fieldError(page, 'User').textContent()).toBe('Input is required');
    await expect.poll(() => fieldError(page, 'Password').textContent()).toBe('Input is required');
    await page.getByLabel('User').fill('u'.repeat(1001));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => fieldError(page, 'User').textContent()).toBe('Max length is 1000');
    await context.close();
  });

  it('says why a sign-in fails, under the form', async () => {
    const { context, page } = await visit(stage);
    await page.goto('/login');
    await page.getByLabel('User').fill('owner');
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const failure = page.getByRole('main').getByRole('alert');
    await expectVisible(failure.getByText('Could not sign in', { exact: true }));
    await expectVisible(failure.getByText('Wrong user name or password', { exact: true }));
    expect(await page.locator('.mantine-Notification-root').count()).toBe(0);
    await snap(page, 'login-error');
    await expectPath(page, '/login');
    await context.close();
  });

  it('signs in, goes back to the page asked for, and signs out', async () => {
    const { context, page } = await visit(stage);
    await page.goto('/user/security');
    await expectPath(page, '/login');
    await page.getByLabel('User').fill('member');
    await page.getByLabel('Password').fill('password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expectPath(page, '/user/security');
    await page.getByRole('button', { name: /User menu/ }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await expectPath(page, '/login');
    await page.goto('/user');
    await expectPath(page, '/login');
    await context.close();
  });

  it('shows an error icon with a tooltip when the methods cannot be loaded', async () => {
    const { context, page } = await visit(stage);
    await page.route('**/auth/methods', (route) =>
      route.fulfill({
        status: 503,
        json: { statusCode: 503, error: 'Service Unavailable', message: 'Down for a moment' },
      }),
    );
    await page.goto('/login');
    const icon = page.getByLabel('The sign-in methods could not be loaded');
    await icon.hover();
    await expectVisible(page.getByRole('tooltip', { name: 'Could not load the sign-in methods: Down for a moment' }));
    await context.close();
  });
});
