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

describeInBrowser('organization home (/) and the sidebar', () => {
  let stage: Stage;
  let emptyOrgId: string;
  beforeAll(async () => {
    stage = await openStage();
    const owner = await signedIn(stage.server.url, 'owner');
    emptyOrgId = expectStatus(await owner.post('/api/v1/orgs', { name: 'Empty Co' }), 200)._id;
  });
  afterAll(() => stage?.close());

  it("shows 'No teams', then adds a team with Ctrl+P", async () => {
    const { context, page } = await visit(stage, { user: 'owner', orgId: emptyOrgId });
    await page.goto('/');
    await expectVisible(page.getByText('No teams'));
    await snap(page, 'home-empty');
    await page.keyboard.press('Control+KeyP');
    const modal = page.getByRole('dialog', { name: 'Create team' });
    await expectVisible(modal);
    await modal.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => fieldError(modal, 'Name').textContent()).toBe('Input is required');
    await modal.getByLabel('Name').fill('x'.repeat(1001));
    await modal.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => fieldError(modal, 'Name').textContent()).toBe('Max length is 1000');
    await modal.getByLabel('Name').fill('Design');
    await modal.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/teams\/[^/]+\/sites$/);
    await expectVisible(page.getByRole('heading', { name: 'Design' }));
    await expectVisible(page.getByText('No sites'));
    await page.goto('/');
    await expectVisible(page.getByRole('link', { name: /Design\s*Created just now/ }));
    await context.close();
  });

  it('pages the teams with Load more, newest first, each with its creation time', async () => {
    const owner = await signedIn(stage.server.url, 'owner');
    const org = expectStatus(await owner.post('/api/v1/orgs', { name: 'Many Teams' }), 200);
    for (let index = 1; index <= 23; index++)
      expectStatus(await owner.post(`/api/v1/orgs/${org._id}/teams`, { name: `Team ${index}` }), 200);
    const { context, page } = await visit(stage, { user: 'owner', orgId: org._id });
    await page.goto('/');
    const rows = page.getByRole('main').getByRole('link', { name: /^Team \d+/ });
    await expectVisible(page.getByRole('button', { name: 'Load more' }));
    await expect.poll(() => rows.count()).toBe(20);
    await expect.poll(() => rows.first().textContent()).toContain('Team 23');
    await snap(page, 'home');
    await page.getByRole('button', { name: 'Load more' }).click();
    await expectHidden(page.getByRole('button', { name: 'Load more' }));
    await expect.poll(() => rows.count()).toBe(23);
    await context.close();
  });

  it('hides Add team from a plain member, and Ctrl+P does nothing', async () => {
    const { context, page } = await visit(stage, { user: 'member', orgId: stage.world.org._id });
    await page.goto('/');
    await expectVisible(page.getByRole('link', { name: /Web/ }).first());
    expect(await page.getByRole('button', { name: 'Add team' }).count()).toBe(0);
    await page.keyboard.press('Control+KeyP');
    // Keys are handled in order: once Ctrl+K has opened the search, Ctrl+P has had its turn.
    await page.keyboard.press('Control+KeyK');
    await expectVisible(page.getByRole('textbox', { name: 'Search sites' }));
    expect(await page.getByRole('dialog', { name: 'Create team' }).count()).toBe(0);
    await context.close();
  });

  it('lists teams with their sites in the sidebar', async () => {
    const { context, page } = await visit(stage, { user: 'member', orgId: stage.world.org._id });
    await page.goto('/');
    const sidebar = page.getByRole('navigation', { name: 'Teams and sites' });
    await expectVisible(sidebar.getByRole('link', { name: stage.world.site.name }));
    await sidebar.getByRole('link', { name: stage.world.site.name }).click();
    await expectPath(page, `/sites/${stage.world.site._id}/branches`);
    await sidebar.getByRole('link', { name: 'Web' }).click();
    await expectPath(page, `/teams/${stage.world.team._id}/sites`);
    await context.close();
  });

  it('shows teams and sites others add or delete without a reload (real-time)', async () => {
    const owner = await signedIn(stage.server.url, 'owner');
    const { context, page } = await visit(stage, { user: 'member', orgId: stage.world.org._id });
    await page.goto('/');
    const sidebar = page.getByRole('navigation', { name: 'Teams and sites' });
    await expectVisible(sidebar.getByRole('link', { name: 'Web' }));
    const team = expectStatus(await owner.post(`/api/v1/orgs/${stage.world.org._id}/teams`, { name: 'Live' }), 200);
    await expectVisible(page.getByRole('main').getByRole('link', { name: /^Live/ }));
    const site = expectStatus(await owner.post(`/api/v1/teams/${team._id}/sites`, { name: 'live-site' }), 200);
    await expectVisible(sidebar.getByRole('link', { name: 'live-site' }));
    expectStatus(await owner.delete(`/api/v1/sites/${site._id}`), 204);
    await expectHidden(sidebar.getByRole('link', { name: 'live-site' }));
    expectStatus(await owner.delete(`/api/v1/teams/${team._id}`), 204);
    await expectHidden(page.getByRole('main').getByRole('link', { name: /^Live/ }));
    await context.close();
  });

  it('creates a site from the create button, its name checked by the server', async () => {
    const { context, page } = await visit(stage, { user: 'admin', orgId: stage.world.org._id });
    await page.goto('/');
    await page.getByRole('banner').getByRole('button', { name: 'Create' }).click();
    await page.getByRole('menuitem', { name: 'Site' }).click();
    const modal = page.getByRole('dialog', { name: 'Create site' });
    await expectVisible(modal);
    await modal.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => fieldError(modal, 'Team').textContent()).toBe('Input is required');
    await expect.poll(() => fieldError(modal, 'Name').textContent()).toBe('Input is required');
    await modal.getByLabel('Name').fill('Not A Valid Name');
    await modal.getByRole('button', { name: 'Create' }).click();
    await expect
      .poll(() => fieldError(modal, 'Name').textContent())
      .toBe('Must match ^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$');
    await modal.getByLabel('Name').fill(stage.world.site.name);
    await expectVisible(fieldError(modal, 'Name').filter({ hasText: /taken|exists|use/i }));
    await snap(page, 'create-site');
    await modal.getByLabel('Team').click();
    await page.getByRole('option', { name: 'Web' }).click();
    await modal.getByLabel('Name').fill('fresh-site');
    await expectVisible(modal.getByLabel('Name is free'));
    await modal.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/sites\/[^/]+\/branches$/);
    await expectVisible(page.getByRole('heading', { name: 'fresh-site' }));
    await expectVisible(
      page.getByRole('navigation', { name: 'Teams and sites' }).getByRole('link', { name: 'fresh-site' }),
    );
    await context.close();
  });
});
