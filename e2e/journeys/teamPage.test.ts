import { expectStatus } from '@wharf/server/testing';
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
  toast,
  visit,
} from '../support/journey.ts';

type Box = { x: number; y: number; width: number; height: number };

function overlap(a: Box, b: Box) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

describeInBrowser('team page (/teams/{teamId})', () => {
  let stage: Stage;
  beforeAll(async () => {
    stage = await openStage();
  });
  afterAll(() => stage?.close());

  it('creates a team and a site from the console, the site name checked as it is typed', async () => {
    const { context, page } = await visit(stage, { user: 'admin', orgId: stage.world.org._id });
    await page.goto('/');
    await page.getByRole('button', { name: 'Add team' }).click();
    const createTeam = page.getByRole('dialog', { name: 'Create team' });
    await createTeam.getByLabel('Name').fill('Docs');
    await createTeam.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/teams\/[^/]+\/sites$/);
    const teamId = new URL(page.url()).pathname.split('/')[2]!;
    await expectVisible(page.getByRole('heading', { name: 'Docs' }));
    await expectVisible(page.getByText('No sites'));
    await snap(page, 'team-sites-empty');

    await page.getByRole('button', { name: 'Add site' }).click();
    const createSite = page.getByRole('dialog', { name: 'Create site' });
    await createSite.getByLabel('Name').fill('Not A Name');
    await createSite.getByRole('button', { name: 'Create' }).click();
    await expect
      .poll(() => fieldError(createSite, 'Name').textContent())
      .toBe('Must match ^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$');
    await createSite.getByLabel('Name').fill(stage.world.site.name);
    await expectVisible(fieldError(createSite, 'Name').filter({ hasText: 'Site name is taken' }));
    const name = stage.world.unique('docs');
    await createSite.getByLabel('Name').fill(name);
    await expectVisible(createSite.getByLabel('Name is free'));
    await createSite.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/sites\/[^/]+\/branches$/);
    await expectVisible(page.getByRole('heading', { name }));
    await expectVisible(page.getByLabel('Branch main').getByText('main', { exact: true }));

    await page.goto(`/teams/${teamId}`);
    await expectPath(page, `/teams/${teamId}/sites`);
    await expectVisible(page.getByRole('main').getByRole('link', { name: `Site ${name}` }));
    await snap(page, 'team-sites');
    await context.close();
  });

  it('adds a member from a searchable list and removes them', async () => {
    const owner = stage.world.clients.owner;
    const team = expectStatus(await owner.post(`/api/v1/orgs/${stage.world.org._id}/teams`, { name: 'Crew' }), 200);
    const { context, page } = await visit(stage, { user: 'admin', orgId: stage.world.org._id });
    await page.goto(`/teams/${team._id}/members`);
    await expectVisible(page.getByText('No members'));
    await page.getByRole('button', { name: 'Add member' }).click();
    const modal = page.getByRole('dialog', { name: 'Add member' });
    await modal.getByLabel('Search members').fill('te');
    await expectVisible(modal.getByText('Search needs at least 3 characters'));
    await modal.getByLabel('Search members').fill('teammate');
    await expectHidden(modal.getByLabel('Candidate owner'));
    await snap(page, 'team-add-member');
    await modal.getByRole('button', { name: 'Add teammate' }).click();
    await expectVisible(modal.getByLabel('Candidate teammate').getByText('In team'));
    await modal.getByRole('button', { name: 'Done' }).click();
    const row = page.getByLabel('Team member teammate');
    await expectVisible(row);
    await snap(page, 'team-members');
    await row.getByRole('button', { name: 'Remove teammate from the team' }).click();
    await expectVisible(page.getByText('No members'));
    await context.close();
  });

  it('saves the team settings once changed, and hides admin controls from members', async () => {
    const { context, page } = await visit(stage, { user: 'admin', orgId: stage.world.org._id });
    await page.goto(`/teams/${stage.world.team._id}/settings`);
    const save = page.getByRole('button', { name: 'Save' });
    await expectVisible(page.getByRole('heading', { name: 'Logo' }));
    await expect.poll(() => save.isDisabled()).toBe(true);
    await page.getByLabel('Name').fill('');
    await save.click();
    await expect.poll(() => fieldError(page, 'Name').textContent()).toBe('Input is required');
    await page.getByLabel('Color').fill('blue');
    await page.getByLabel('Name').fill('Web team');
    await save.click();
    await expect.poll(() => fieldError(page, 'Color').textContent()).toBe('Must match ^#[0-9a-f]{6}$');
    await page.getByLabel('Color').fill('#0ca678');
    await save.click();
    await expectVisible(toast(page, 'Team saved'));
    // The toast leaves the header and the page's menu free.
    const toastBox = await toast(page, 'Team saved').boundingBox();
    for (const covered of [page.getByRole('banner'), page.getByRole('button', { name: 'Team actions' })]) {
      expect(overlap(toastBox!, (await covered.boundingBox())!)).toBe(false);
    }
    await expect.poll(() => save.isDisabled()).toBe(true);
    await expectVisible(page.getByRole('heading', { name: 'Web team' }));
    await snap(page, 'team-settings');
    await context.close();

    const member = await visit(stage, { user: 'member', orgId: stage.world.org._id });
    await member.page.goto(`/teams/${stage.world.team._id}`);
    await expectVisible(member.page.getByRole('tab', { name: 'Members' }));
    expect(await member.page.getByRole('tab', { name: 'Settings' }).count()).toBe(0);
    expect(await member.page.getByRole('button', { name: 'Team actions' }).count()).toBe(0);
    expect(await member.page.getByRole('button', { name: 'Add site' }).count()).toBe(0);
    await member.context.close();
  });

  it('deletes a team after confirmation', async () => {
    const owner = stage.world.clients.owner;
    const team = expectStatus(await owner.post(`/api/v1/orgs/${stage.world.org._id}/teams`, { name: 'Gone' }), 200);
    const { context, page } = await visit(stage, { user: 'owner', orgId: stage.world.org._id });
    await page.goto(`/teams/${team._id}`);
    await page.getByRole('button', { name: 'Team actions' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete team' });
    await snap(page, 'team-delete');
    await dialog.getByRole('button', { name: 'Delete team' }).click();
    await expectPath(page, '/');
    expectStatus(await owner.get(`/api/v1/teams/${team._id}`), 404);
    await context.close();
  });
});
