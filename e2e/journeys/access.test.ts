import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeInBrowser } from '../support/browser.ts';
import { expectPath, expectVisible, failureToast, openStage, type Stage, snap, visit } from '../support/journey.ts';

describeInBrowser('access rules of the shell (spec.md §2)', () => {
  let stage: Stage;
  beforeAll(async () => {
    stage = await openStage();
  });
  afterAll(() => stage?.close());

  it('shows Initializing until the session is known', async () => {
    const { context, page } = await visit(stage, { user: 'member' });
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/api/v1/user', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/legal');
    await expectVisible(page.getByText('Initializing'));
    release();
    await expectVisible(page.getByRole('tab', { name: 'Terms of service' }));
    await context.close();
  });

  it('knows a visitor without a session cookie is signed out without asking, and logs no error', async () => {
    const { context, page } = await visit(stage);
    const userRequests: string[] = [];
    const errors: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/v1/user') userRequests.push(request.url());
    });
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.goto('/teams');
    await expectPath(page, '/login');
    // The sign-in shows only once the session is known: no request for it can still be on its way.
    await expectVisible(page.getByRole('button', { name: 'Sign in' }));
    expect(userRequests).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('sends a signed-out visitor to /login from every page but /legal', async () => {
    const { context, page } = await visit(stage);
    for (const path of [
      '/',
      '/orgs',
      '/org',
      '/org/staff',
      '/user',
      '/user/api-tokens',
      '/invite?token=x',
      '/teams',
      '/teams/abc',
      '/sites/abc',
    ]) {
      await page.goto(path);
      await expectPath(page, '/login');
    }
    for (const path of ['/legal', '/legal/terms', '/legal/privacy']) {
      await page.goto(path);
      await expectVisible(page.getByRole('tab', { name: 'Privacy policy' }));
      await expectPath(page, path);
    }
    await page.goto('/somewhere/else');
    await expectVisible(page.getByRole('heading', { name: 'Not found' }));
    await context.close();
  });

  it('sends a signed-in user without an organization to /orgs, and away from /login', async () => {
    const { context, page } = await visit(stage, { user: 'outsider' });
    for (const path of ['/login', '/', '/teams', '/teams/abc', '/sites/abc', '/org']) {
      await page.goto(path);
      await expectPath(page, '/orgs');
    }
    await page.goto('/user');
    await expectPath(page, '/user/api-tokens');
    await page.goto('/invite');
    await expectVisible(page.getByText('No token found'));
    await page.goto('/nothing-here');
    await expectVisible(page.getByRole('heading', { name: 'Not found' }));
    await context.close();
  });

  it('keeps a plain member out of /org and /orgs, and hides Organization Settings', async () => {
    const { context, page } = await visit(stage, { user: 'member', orgId: stage.world.org._id });
    await page.goto('/');
    await expectVisible(page.getByRole('heading', { name: 'Teams' }));
    await page.goto('/org');
    await expectPath(page, '/');
    await page.goto('/orgs');
    await expectPath(page, '/');
    await page.getByRole('button', { name: /User menu/ }).click();
    await expectVisible(page.getByRole('menuitem', { name: 'User settings' }));
    expect(await page.getByRole('menuitem', { name: 'Organization Settings' }).count()).toBe(0);
    await context.close();
  });

  it('lets an admin into /org from the user menu', async () => {
    const { context, page } = await visit(stage, { user: 'admin', orgId: stage.world.org._id });
    await page.goto(`/teams/${stage.world.team._id}`);
    await expectVisible(page.getByRole('heading', { name: 'Web' }));
    await snap(page, 'team');
    await page.goto(`/sites/${stage.world.site._id}`);
    await expectVisible(page.getByRole('heading', { name: stage.world.site.name }));
    await snap(page, 'site');
    await page.getByRole('button', { name: /User menu/ }).click();
    await page.getByRole('menuitem', { name: 'Organization Settings' }).click();
    await expectPath(page, '/org/settings');
    await expectVisible(page.getByRole('tab', { name: 'Settings', selected: true }));
    await context.close();
  });

  it('forgets a stored organization that cannot be loaded and lands on /orgs', async () => {
    const { context, page } = await visit(stage, { user: 'member', orgId: 'gone-org-id' });
    await page.goto('/');
    await expectPath(page, '/orgs');
    await expectVisible(failureToast(page, 'get current org'));
    expect(await page.evaluate(() => localStorage.getItem('wharf.currentOrg'))).toBeNull();
    await context.close();
  });

  it('switches organization from the user menu', async () => {
    const { context, page } = await visit(stage, { user: 'owner', orgId: stage.world.org._id });
    await page.goto('/');
    await page.getByRole('button', { name: /User menu/ }).click();
    await page.getByRole('menuitem', { name: 'Organizations' }).click();
    await expectPath(page, '/orgs');
    await page.getByRole('button', { name: 'Select Acme' }).click();
    await expectPath(page, '/');
    await expectVisible(page.getByRole('heading', { name: 'Teams' }));
    await context.close();
  });
});
