import type { Page, Request, Route } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeInBrowser } from '../support/browser.ts';
import { expectHidden, expectVisible, openStage, pathOf, type Stage, snap, visit } from '../support/journey.ts';

const BUILD_META = /(<meta name="wharf-console-build" content=")[^"]+(")/;

const chunkNotice = (page: Page) => page.getByRole('alert', { name: 'Part of the console could not be loaded' });
const newVersionNotice = (page: Page) => page.getByRole('status', { name: 'A new version of Wharf is available' });

/** Every request of the page for a file of the console whose name starts so (its script, its styles). */
function blockAssets(page: Page, prefix: string, answer: (route: Route) => Promise<void> = (route) => route.abort()) {
  const asked: string[] = [];
  void page.route(`**/assets/${prefix}-*`, (route) => {
    asked.push(new URL(route.request().url()).pathname);
    return answer(route);
  });
  return asked;
}

/** Serves the pages the browser navigates to as an older build named them (the files stay the same). */
async function serveOlderPages(page: Page, build: string) {
  await page.route(
    (url) => !url.pathname.startsWith('/api/') && !url.pathname.startsWith('/assets/'),
    async (route) => {
      if (route.request().resourceType() !== 'document') return route.fallback();
      const answer = await route.fetch();
      return route.fulfill({ response: answer, body: (await answer.text()).replace(BUILD_META, `$1${build}$2`) });
    },
  );
}

/** Counts the page's loads of a whole document (first load and reloads). */
function countDocumentLoads(page: Page) {
  const loads: string[] = [];
  page.on('request', (request: Request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) loads.push(request.url());
  });
  return loads;
}

describeInBrowser('code loaded on demand that cannot be loaded: never a blank page', () => {
  let stage: Stage;

  beforeAll(async () => {
    stage = await openStage();
  });
  afterAll(async () => {
    await stage?.close();
  });

  it('keeps the page and offers Reload when the first toast’s code cannot be loaded', async () => {
    const { page } = await visit(stage, { user: 'owner', orgId: stage.world.org._id });
    // The server out of reach for a moment: the installation's settings fail (a toast), and so does the toast's code.
    await page.route('**/api/v1/system/env', (route) => route.abort());
    const asked = blockAssets(page, 'notificationsContainer');
    await page.goto('/teams');
    await expectVisible(chunkNotice(page));
    await expectVisible(page.getByRole('heading', { name: 'Teams' }));
    // Tried once more before giving up (the script and its stylesheet, twice each).
    expect(asked.filter((file) => file.endsWith('.js'))).toHaveLength(2);
    await snap(page, 'chunk-failure-notice');

    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await chunkNotice(page).getByRole('button', { name: 'Reload' }).click();
    await expectVisible(page.getByRole('heading', { name: 'Teams' }));
    await expectHidden(chunkNotice(page));
  });

  it('shows the frame and the notice, not a blank page, when a page’s code cannot be loaded', async () => {
    const { page } = await visit(stage, { user: 'owner', orgId: stage.world.org._id });
    blockAssets(page, 'SitePage');
    await page.goto(`/sites/${stage.world.site._id}`);
    await expectVisible(chunkNotice(page));
    await expectVisible(page.getByRole('link', { name: 'Wharf home' }));
    expect(await page.getByText('This page failed to show').count()).toBe(0);
    await snap(page, 'chunk-failure-page');
  });

  it('reloads once into the new build when the server was upgraded under an open tab', async () => {
    const { page } = await visit(stage, { user: 'owner', orgId: stage.world.org._id });
    const loads = countDocumentLoads(page);
    let upgraded = false;
    // This tab opened on the old build; the upgrade removed the old build's files (404, as the
    // server answers for a file it does not have) until the tab loads the new build's page.
    await serveOlderPages(page, 'old-build');
    page.on('request', (request) => {
      if (upgraded && request.isNavigationRequest()) upgraded = false;
    });
    await page.route('**/assets/**', (route) =>
      upgraded ? route.fulfill({ status: 404, body: 'Not found' }) : route.fallback(),
    );
    await page.goto('/teams');
    await expectVisible(page.getByRole('heading', { name: 'Teams' }));
    await page.unroute((url) => !url.pathname.startsWith('/api/') && !url.pathname.startsWith('/assets/'));

    upgraded = true;
    await page.getByRole('link', { name: 'Legal' }).click();
    await expectVisible(page.getByRole('heading', { level: 1, name: 'Terms of service' }));
    expect(pathOf(page)).toBe('/legal');
    expect(loads).toHaveLength(2);
    expect(await chunkNotice(page).count()).toBe(0);
  });

  it('reloads only once: a new build whose code is missing too ends at the notice', async () => {
    const { page } = await visit(stage, { user: 'owner', orgId: stage.world.org._id });
    const loads = countDocumentLoads(page);
    await serveOlderPages(page, 'old-build');
    await page.goto('/teams');
    await expectVisible(page.getByRole('heading', { name: 'Teams' }));
    // Every page load still names the old build, and the legal page's code is never there.
    blockAssets(page, 'LegalPage', (route) => route.fulfill({ status: 404, body: 'Not found' }));
    await page.getByRole('link', { name: 'Legal' }).click();
    await expectVisible(chunkNotice(page));
    expect(loads).toHaveLength(2);
  });

  it('offers a reload when a tab looked at again finds the server serving a new build', async () => {
    const { page } = await visit(stage, { user: 'owner', orgId: stage.world.org._id });
    await page.clock.install();
    await page.goto('/teams');
    await expectVisible(page.getByRole('heading', { name: 'Teams' }));
    let asked = 0;
    await page.route(
      (url) => url.pathname === '/',
      async (route) => {
        const answer = await route.fetch();
        asked++;
        return route.fulfill({ response: answer, body: (await answer.text()).replace(BUILD_META, '$1newer-build$2') });
      },
    );
    const lookAgain = async () => {
      await page.clock.fastForward('10:01');
      await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
    };
    await lookAgain();
    await expectVisible(newVersionNotice(page));
    await snap(page, 'new-version-notice');
    await newVersionNotice(page).getByRole('button', { name: 'Later' }).click();
    await expectHidden(newVersionNotice(page));
    // "Later" holds: the tab asks again (on its next look, or when its live updates reconnect, as
    // ten minutes of fast-forwarded heartbeats make them) and learns of the same build, unoffered.
    const before = asked;
    await lookAgain();
    await expect.poll(() => asked).toBeGreaterThan(before);
    await page.waitForTimeout(500);
    expect(await newVersionNotice(page).count()).toBe(0);
  });
});
