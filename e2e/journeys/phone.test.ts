import { uploadRelease } from '@wharf/server/testing';
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeInBrowser } from '../support/browser.ts';
import {
  expectPath,
  expectStatus,
  expectVisible,
  openStage,
  PHONE,
  type Stage,
  snap,
  visit,
} from '../support/journey.ts';

/** How many rows the tabs of a tab bar take, and whether the bar scrolls sideways. */
async function rowsOf(tabList: Locator) {
  return tabList.evaluate((list) => {
    const tabs = [...list.querySelectorAll('[role="tab"]')].map((tab) => tab.getBoundingClientRect());
    const rows = new Set(tabs.map((tab) => Math.round(tab.top)));
    return { rows: rows.size, scrolls: list.scrollWidth > list.clientWidth };
  });
}

describeInBrowser('the console on a phone (375 px)', () => {
  let stage: Stage;
  let site: { _id: string; name: string; url: string; branches: { name: string; url: string }[] };
  beforeAll(async () => {
    stage = await openStage();
    // A long name makes an address longer than a phone is wide.
    site = expectStatus(
      await stage.world.clients.owner.post(`/api/v1/teams/${stage.world.team._id}/sites`, {
        name: stage.world.unique('a-site-whose-name-is-long-enough'),
      }),
      200,
    );
    await uploadRelease(stage.world.clients.owner, site._id, 'v1', ['main', 'feature/with-a-long-branch-name']);
    site = expectStatus(await stage.world.clients.owner.get(`/api/v1/sites/${site._id}`), 200);
  });
  afterAll(() => stage?.close());

  it('keeps every tab bar on one row that scrolls sideways', async () => {
    const { context, page } = await visit(stage, { user: 'admin', orgId: stage.world.org._id, viewport: PHONE });
    await page.goto(`/sites/${site._id}/branches`);
    const siteTabs = page.getByRole('tablist').first();
    await expectVisible(siteTabs.getByRole('tab', { name: 'Branches', selected: true }));
    // Five tabs are wider than the phone: they scroll rather than wrap.
    expect(await rowsOf(siteTabs)).toEqual({ rows: 1, scrolls: true });
    await snap(page, 'phone-site-branches');

    await siteTabs.getByRole('tab', { name: 'Settings' }).click();
    await expectPath(page, `/sites/${site._id}/settings`);
    expect(await rowsOf(siteTabs)).toEqual({ rows: 1, scrolls: true });

    // Opened by its address, the last tab is scrolled into view.
    await page.goto(`/sites/${site._id}/settings/security`);
    const settingsTab = page.getByRole('tab', { name: 'Settings', selected: true });
    await expectVisible(settingsTab);
    const rightEdge = async () => {
      const box = await settingsTab.boundingBox();
      return box ? box.x + box.width : Number.POSITIVE_INFINITY;
    };
    await expect.poll(rightEdge).toBeLessThanOrEqual(PHONE.width);
    const settingsTabs = page.getByRole('tablist', { name: 'Site settings' });
    await expectVisible(settingsTabs.getByRole('tab', { name: 'Security', selected: true }));
    expect((await rowsOf(settingsTabs)).rows).toBe(1);

    await page.goto(`/sites/${site._id}/branches`);
    await page
      .getByRole('link', { name: /^Branch feature/ })
      .getByText('feature/with-a-long-branch-name')
      .click();
    const branchTabs = page.getByRole('tablist').nth(1);
    await expectVisible(branchTabs.getByRole('tab', { name: 'Releases', selected: true }));
    expect(await rowsOf(branchTabs)).toEqual({ rows: 1, scrolls: true });
    await snap(page, 'phone-branch');

    await page.goto(`/teams/${stage.world.team._id}/sites`);
    const teamTabs = page.getByRole('tablist');
    await expectVisible(teamTabs.getByRole('tab', { name: 'Sites', selected: true }));
    expect((await rowsOf(teamTabs)).rows).toBe(1);
    await context.close();
  });

  it('ends a long address in an ellipsis on one line, and copies it whole', async () => {
    const { context, page } = await visit(stage, { user: 'admin', orgId: stage.world.org._id, viewport: PHONE });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto(`/sites/${site._id}/branches`);
    const link = page.getByRole('link', { name: 'Main branch link' });
    await expectVisible(link);
    await expect.poll(() => link.getAttribute('href')).toBe(site.url);
    const shape = await link.evaluate((element) => ({
      cut: element.scrollWidth > element.clientWidth,
      ellipsis: getComputedStyle(element).textOverflow,
      wraps: getComputedStyle(element).whiteSpace !== 'nowrap',
    }));
    expect(shape).toEqual({ cut: true, ellipsis: 'ellipsis', wraps: false });
    const box = await link.boundingBox();
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(PHONE.width);
    await page
      .getByRole('main')
      .getByRole('button', { name: `Copy ${site.url}` })
      .first()
      .click();
    await expectVisible(page.getByRole('tooltip', { name: 'Copied' }));
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(site.url);
    // Copying the address of a branch row does not open the branch.
    const branchUrl = site.branches.find((branch) => branch.name !== 'main')?.url ?? '';
    await page.getByRole('button', { name: `Copy ${branchUrl}` }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(branchUrl);
    await expectPath(page, `/sites/${site._id}/branches`);
    await context.close();
  });

  it("holds 'Delete site' in the site page's menu", async () => {
    const doomed = expectStatus(
      await stage.world.clients.owner.post(`/api/v1/teams/${stage.world.team._id}/sites`, {
        name: stage.world.unique('doomed'),
      }),
      200,
    );
    const { context, page } = await visit(stage, { user: 'admin', orgId: stage.world.org._id, viewport: PHONE });
    await page.goto(`/sites/${doomed._id}`);
    await page.getByRole('button', { name: 'Site actions' }).click();
    await expectVisible(page.getByRole('menuitem', { name: 'Delete site' }));
    await snap(page, 'phone-site-menu');
    await page.getByRole('menuitem', { name: 'Delete site' }).click();
    await page.getByRole('dialog', { name: 'Delete site' }).getByRole('button', { name: 'Delete site' }).click();
    await expectPath(page, `/teams/${stage.world.team._id}/sites`);
    expectStatus(await stage.world.clients.owner.get(`/api/v1/sites/${doomed._id}`), 404);
    await context.close();
  });
});
