import { expectStatus } from '@wharf/server/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, it } from 'vitest';
import { describeInBrowser } from '../support/browser.ts';
import { expectPath, expectVisible, openStage, type Stage, visit } from '../support/journey.ts';

/** The page shows this address with this tab selected and its content under it. */
async function expectTab(page: Page, pathname: string, tab: string, content: string | RegExp) {
  await expectPath(page, pathname);
  await expectVisible(page.getByRole('tab', { name: tab, selected: true }));
  await expectVisible(page.getByRole('main').getByText(content));
}

function sidebarLink(page: Page, name: string) {
  return page.getByRole('navigation', { name: 'Teams and sites' }).getByRole('link', { name, exact: true });
}

async function openUserMenuItem(page: Page, item: string) {
  await page.getByRole('button', { name: /User menu/ }).click();
  await page.getByRole('menuitem', { name: item }).click();
}

// spec.md §2: each base path redirects to its default tab. Each is reached here the three ways a
// person reaches it: typed or reloaded, by a link while on another tab of the same page, and by Back.
describeInBrowser('base paths land on their default tab', () => {
  let stage: Stage;
  let hookId: string;
  beforeAll(async () => {
    stage = await openStage();
    const hook = expectStatus(
      await stage.world.clients.owner.post(`/api/v1/teams/${stage.world.team._id}/hooks`, {
        type: 'slack',
        name: 'Team news',
        events: ['team_updated'],
        config: { url: 'https://hooks.example.com/team' },
      }),
      200,
    );
    hookId = hook._id;
  });
  afterAll(() => stage?.close());

  const admin = () => visit(stage, { user: 'admin', orgId: stage.world.org._id });

  it('/teams/{teamId}: right after creating a team, and from its other tabs through the sidebar', async () => {
    const { context, page } = await admin();
    // As slow as a modest phone: the sidebar click then lands while the redirect that follows the
    // team's creation is still rendering, as it did for a new user on a busy machine.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await page.goto('/');
    await page.getByRole('button', { name: 'Add team' }).first().click();
    const createTeam = page.getByRole('dialog', { name: 'Create team' });
    const name = stage.world.unique('Team');
    await createTeam.getByLabel('Name').fill(name);
    await createTeam.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/teams\/[^/]+\/sites$/);
    const teamId = new URL(page.url()).pathname.split('/')[2]!;
    const teamPath = `/teams/${teamId}`;
    // Clicked as soon as the address changes, before the page under it has finished rendering.
    await sidebarLink(page, name).click();
    await expectTab(page, `${teamPath}/sites`, 'Sites', 'No sites');
    await page.getByRole('tab', { name: 'Members' }).click();
    await expectTab(page, `${teamPath}/members`, 'Members', 'No members');
    await sidebarLink(page, name).click();
    await expectTab(page, `${teamPath}/sites`, 'Sites', 'No sites');
    await page.goBack();
    await expectTab(page, `${teamPath}/members`, 'Members', 'No members');
    await page.goForward();
    await expectTab(page, `${teamPath}/sites`, 'Sites', 'No sites');

    await page.goto(teamPath);
    await expectTab(page, `${teamPath}/sites`, 'Sites', 'No sites');
    await context.close();
  });

  it('/sites/{siteId}: typed, through the sidebar from another tab, and back', async () => {
    const { site } = stage.world;
    const sitePath = `/sites/${site._id}`;
    const { context, page } = await admin();
    await page.goto(sitePath);
    await expectTab(page, `${sitePath}/branches`, 'Branches', 'Traffic');
    await page.getByRole('tab', { name: 'Releases' }).click();
    await expectTab(page, `${sitePath}/releases`, 'Releases', 'first release');
    await sidebarLink(page, site.name).click();
    await expectTab(page, `${sitePath}/branches`, 'Branches', 'Traffic');
    await page.goBack();
    await expectTab(page, `${sitePath}/releases`, 'Releases', 'first release');
    await page.goBack();
    await expectTab(page, `${sitePath}/branches`, 'Branches', 'Traffic');
    await context.close();
  });

  it('/sites/{siteId}/branches/{branchId}: typed, from the branch list, and back', async () => {
    const { site } = stage.world;
    const branchPath = `/sites/${site._id}/branches/${site.mainBranch}`;
    const { context, page } = await admin();
    await page.goto(branchPath);
    await expectTab(page, `${branchPath}/releases`, 'Releases', 'first release');
    await page.getByRole('tab', { name: 'Redirects' }).click();
    await expectPath(page, `${branchPath}/redirects`);
    await page.getByRole('link', { name: 'Branches' }).click();
    await page.getByRole('link', { name: 'Branch main' }).click();
    await expectTab(page, `${branchPath}/releases`, 'Releases', 'first release');
    await page.goBack();
    await expectPath(page, `/sites/${site._id}/branches`);
    await page.goForward();
    await expectTab(page, `${branchPath}/releases`, 'Releases', 'first release');
    await context.close();
  });

  it('/{context}/hooks/{hookId}: typed, from the hook list, and back', async () => {
    const hooksPath = `/teams/${stage.world.team._id}/hooks`;
    const hookPath = `${hooksPath}/${hookId}`;
    const { context, page } = await admin();
    await page.goto(hookPath);
    await expectTab(page, `${hookPath}/settings`, 'Settings', 'Events');
    await page.getByRole('tab', { name: 'Deliveries' }).click();
    await expectPath(page, `${hookPath}/deliveries`);
    await page.getByRole('link', { name: 'Hooks' }).click();
    await page.getByRole('link', { name: 'Hook Team news' }).click();
    await expectTab(page, `${hookPath}/settings`, 'Settings', 'Events');
    await page.goBack();
    await expectPath(page, hooksPath);
    await page.goForward();
    await expectTab(page, `${hookPath}/settings`, 'Settings', 'Events');
    await context.close();
  });

  it('/user: typed, from the user menu while on another tab, and back', async () => {
    const { context, page } = await admin();
    await page.goto('/user');
    await expectTab(page, '/user/api-tokens', 'API tokens', 'No tokens');
    await page.getByRole('tab', { name: 'Security' }).click();
    await expectTab(page, '/user/security', 'Security', 'Disconnect from all devices');
    await openUserMenuItem(page, 'User settings');
    await expectTab(page, '/user/api-tokens', 'API tokens', 'No tokens');
    await page.goBack();
    await expectTab(page, '/user/security', 'Security', 'Disconnect from all devices');
    await context.close();
  });

  it('/org: typed, from the user menu while on another tab, and back', async () => {
    const { context, page } = await admin();
    await page.goto('/org');
    await expectTab(page, '/org/settings', 'Settings', 'General settings');
    await page.getByRole('tab', { name: 'Staff' }).click();
    await expectTab(page, '/org/staff', 'Staff', 'Invites');
    await openUserMenuItem(page, 'Organization Settings');
    await expectTab(page, '/org/settings', 'Settings', 'General settings');
    await page.goBack();
    await expectTab(page, '/org/staff', 'Staff', 'Invites');
    await context.close();
  });
});
