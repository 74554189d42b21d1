import { COPY_CONFIRMATION_MS, UI_VERSION } from '@wharf/contract';
import { startTestServer, type TestServer } from '@wharf/server/testing';
import type { Request } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeInBrowser } from '../support/browser.ts';
import { expectHidden, expectPath, expectVisible, openStage, type Stage, snap, visit } from '../support/journey.ts';

/** How often the console sends the page views it counted (FLUSH_EVERY_MS in packages/web's pageViews.ts). */
const PAGE_VIEWS_FLUSH_MS = 5_000;

describeInBrowser('legal pages, footer, crash reports and the analytics notice', () => {
  let stage: Stage;
  beforeAll(async () => {
    stage = await openStage();
  });
  afterAll(() => stage?.close());

  it('shows the terms and the privacy policy in pill tabs, from static markdown files', async () => {
    const { context, page } = await visit(stage);
    await page.goto('/legal');
    await expectVisible(page.getByRole('tab', { name: 'Terms of service', selected: true }));
    await expectVisible(page.getByRole('heading', { level: 1, name: 'Terms of service' }));
    await snap(page, 'legal');
    await page.getByRole('tab', { name: 'Privacy policy' }).click();
    await expectPath(page, '/legal/privacy');
    await expectVisible(page.getByRole('heading', { level: 1, name: 'Privacy policy' }));
    await page.getByRole('tab', { name: 'Terms of service' }).click();
    await expectPath(page, '/legal/terms');
    await page.goto('/legal/cookies');
    await expectVisible(page.getByRole('heading', { name: 'Not found' }));
    await snap(page, 'not-found');
    await context.close();
  });

  it('copies the version string; the confirmation hides after 2000 ms', async () => {
    const { context, page } = await visit(stage, { user: 'member', orgId: stage.world.org._id });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    // The page's timers run on a clock this test moves on by hand once the page is loaded.
    await page.clock.install();
    await page.goto('/legal');
    const version = page.getByRole('button', { name: /^Copy the version/ });
    await expectVisible(version);
    // The API version arrives with /system/info; until then the footer shows an ellipsis.
    const loaded = new RegExp(`^UI ${UI_VERSION.replaceAll('.', '\\.')} / API \\d+\\.\\d+\\.\\d+$`);
    await expect.poll(async () => (await version.textContent())?.trim()).toMatch(loaded);
    await snap(page, 'legal-signed-in');
    const text = (await version.textContent())?.trim();
    await page.evaluate(() => navigator.clipboard.writeText(''));
    // Paused, the page's time moves only when this test says. The confirmation's timer starts as the
    // text reaches the clipboard, so at the pause: it must fire exactly COPY_CONFIRMATION_MS later.
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
    await version.click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(text);
    const copied = page.getByRole('tooltip', { name: 'Copied' });
    await page.clock.runFor(COPY_CONFIRMATION_MS - 1);
    await expect.poll(() => copied.isVisible()).toBe(true);
    await page.clock.runFor(1);
    await page.clock.resume();
    await expectHidden(copied);
    await context.close();
  });

  it('has a Legal link and no crash-report question when the installation has no DSN', async () => {
    const { context, page } = await visit(stage);
    await page.goto('/login');
    await expectVisible(page.getByText('Crash reports off'));
    expect(await page.getByRole('button', { name: 'Enable' }).count()).toBe(0);
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page.getByRole('link', { name: 'Legal' }).click();
    await expectPath(page, '/legal');
    await context.close();
  });

  it('shows the analytics notice once signed in (never over the sign-in form), remembered in local storage', async () => {
    const signedOut = await visit(stage, { withAnalyticsNotice: true });
    await signedOut.page.goto('/login');
    await expectVisible(signedOut.page.getByRole('heading', { name: 'Shipping frontend' }));
    await expectVisible(signedOut.page.getByText('Crash reports off'));
    expect(await signedOut.page.getByRole('region', { name: 'Usage analytics notice' }).count()).toBe(0);
    await signedOut.context.close();

    const { context, page } = await visit(stage, {
      user: 'member',
      orgId: stage.world.org._id,
      withAnalyticsNotice: true,
    });
    await page.goto('/');
    const notice = page.getByRole('region', { name: 'Usage analytics notice' });
    await expectVisible(notice);
    await notice.getByRole('button', { name: 'Opt out' }).click();
    await expectHidden(notice);
    await expect.poll(() => page.evaluate(() => localStorage.getItem('wharf.analytics'))).toBe('off');
    await page.reload();
    await expectVisible(page.getByRole('heading', { name: 'Teams' }));
    // The footer's indicator shows once the installation's settings are known, in the same render
    // in which the notice decides whether to show.
    await expectVisible(page.getByText('Crash reports off'));
    expect(await notice.count()).toBe(0);
    await context.close();
  });

  it('counts the pages a signed-in user opens by their shape, and nothing once they opted out', async () => {
    const { db } = stage.server.app;
    const views = async () =>
      Object.fromEntries(
        (await db.selectFrom('page_views').select(['path', 'views']).execute()).map((row) => [
          row.path,
          Number(row.views),
        ]),
      );
    const { context, page } = await visit(stage, { user: 'member', orgId: stage.world.org._id });
    const sends: Request[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/v1/analytics/page-views')
        sends.push(request);
    });
    // The console sends what it counted every PAGE_VIEWS_FLUSH_MS. The installed clock still runs
    // with real time, so on a busy machine a send may go out before the test asks for one: what a
    // step counted is what every send since the step began carried (`since`, an index of `sends`).
    // The test moves the clock on until there is such a send.
    const flush = async (since: number) => {
      let ticks = 0;
      await expect
        .poll(
          async () => {
            await page.clock.runFor(PAGE_VIEWS_FLUSH_MS);
            ticks++;
            return sends.length;
          },
          { timeout: 20_000 },
        )
        .toBeGreaterThan(since)
        .catch(async (error: Error) => {
          // What the page was at when nothing went out: its address and the opt-out it read.
          const state = await page.evaluate(() => ({
            path: document.location.pathname,
            optOut: localStorage.getItem('wharf.analytics'),
            at: new Date().toISOString(),
          }));
          throw new Error(`no send after ${ticks} flush intervals: ${JSON.stringify(state)}`, { cause: error });
        });
      const fresh = sends.slice(since);
      await Promise.all(fresh.map((request) => request.response()));
      return fresh.flatMap((request) => request.postDataJSON().views);
    };
    await page.clock.install();
    const sites = `/teams/${stage.world.team._id}/sites`;
    await page.goto(sites);
    await expectVisible(page.getByRole('tab', { name: 'Sites', selected: true }));
    expect(await flush(0)).toEqual([{ path: '/teams/:id/sites', count: 1 }]);
    await expect.poll(views).toMatchObject({ '/teams/:id/sites': 1 });
    // Only shapes: no id, no name, no query ever reaches the server.
    expect(Object.keys(await views()).every((path) => !/\d/.test(path))).toBe(true);

    await page.evaluate(() => localStorage.setItem('wharf.analytics', 'off'));
    await page.getByRole('tab', { name: 'Members' }).click();
    await expectPath(page, `/teams/${stage.world.team._id}/members`);
    // The address changes before the page renders (a navigation waits for its lazy page): the
    // count would happen then, after the opt-in below, were the test not to wait for the page.
    await expectVisible(page.getByRole('tab', { name: 'Members', selected: true }));
    // Opted in again, the next page is counted: the send that carries it carries all that was
    // counted before it, so the Members page would be there had it been counted.
    await page.evaluate(() => localStorage.removeItem('wharf.analytics'));
    const optedIn = sends.length;
    await page.getByRole('tab', { name: 'Sites' }).click();
    await expectPath(page, sites);
    await expectVisible(page.getByRole('tab', { name: 'Sites', selected: true }));
    expect(await flush(optedIn)).toEqual([{ path: '/teams/:id/sites', count: 1 }]);
    await expect.poll(views).toMatchObject({ '/teams/:id/sites': 2 });
    expect((await views())['/teams/:id/members']).toBeUndefined();
    await context.close();
  });

  describeInBrowser('with a crash-report DSN', () => {
    let reporting: TestServer;
    beforeAll(async () => {
      reporting = await startTestServer({
        serveConsole: true,
        env: { WHARF_CRASH_REPORT_DSN: 'http://public@127.0.0.1:9/1' },
      });
    });
    afterAll(() => reporting?.close());

    it('asks at first load, stores the answer, and Disable or Enable reloads the page', async () => {
      const { context, page } = await visit({ browser: stage.browser, server: reporting });
      await page.goto('/login');
      const question = page.getByRole('dialog', { name: 'Send crash reports?' });
      await expectVisible(question);
      await snap(page, 'crash-report-question');
      await question.getByRole('button', { name: 'Send crash reports' }).click();
      await expectVisible(page.getByText('Crash reports on'));
      await page.waitForFunction(() => '__SENTRY__' in globalThis);

      await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Disable' }).click()]);
      await expectVisible(page.getByText('Crash reports off'));
      await expect.poll(() => page.evaluate(() => '__SENTRY__' in globalThis)).toBe(false);
      expect(await question.count()).toBe(0);
      await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Enable' }).click()]);
      await expectVisible(page.getByText('Crash reports on'));
      await context.close();
    });
  });
});
