import { expectStatus, signedIn, startTestServer, type TestServer } from '@wharf/server/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeInBrowser } from '../support/browser.ts';
import { expectPath, expectVisible, openStage, type Stage, snap, visit } from '../support/journey.ts';

const unavailable = {
  statusCode: 503,
  code: 'SERVER_UNAVAILABLE',
  error: 'Service Unavailable',
  message: 'Wharf is restarting',
};

/**
 * Makes the server's answers to GET of this path fail while `failing` is set, as a restarting
 * server would, and lets them through once it is cleared.
 */
async function failWhile(page: Page, path: string) {
  const outage = { failing: true };
  await page.route(
    (url) => url.pathname === path,
    (route) =>
      outage.failing && route.request().method() === 'GET'
        ? route.fulfill({ status: 503, json: unavailable })
        : route.fallback(),
  );
  return outage;
}

/** Answers GET of this path with a body that is not what the contract promises. */
async function answerMalformed(page: Page, path: string) {
  await page.route(
    (url) => url.pathname === path,
    (route) => (route.request().method() === 'GET' ? route.fulfill({ json: { unexpected: true } }) : route.fallback()),
  );
}

describeInBrowser('no dead ends: failed loads, render errors and unusable invitations', () => {
  let stage: Stage;
  beforeAll(async () => {
    stage = await openStage();
  });
  afterAll(() => stage?.close());

  const teamPath = () => `/teams/${stage.world.team._id}`;
  const teamApi = () => `/api/v1/teams/${stage.world.team._id}`;
  const failedPanel = (page: Page) => page.getByRole('alert').filter({ hasText: 'Could not get team' });

  it('asks again with Retry once the server answers', async () => {
    const { context, page } = await visit(stage, { user: 'admin', orgId: stage.world.org._id });
    const outage = await failWhile(page, teamApi());
    await page.goto(teamPath());
    await expectVisible(failedPanel(page).getByText('Wharf is restarting'));
    await snap(page, 'error-panel');
    outage.failing = false;
    await failedPanel(page).getByRole('button', { name: 'Retry' }).click();
    await expectVisible(page.getByRole('heading', { name: stage.world.team.name }));
    await expectVisible(page.getByRole('tab', { name: 'Sites', selected: true }));
    await context.close();
  });

  it('shows, as the page itself, that the signed-in user could not be read, and goes on with Retry', async () => {
    const { context, page } = await visit(stage, { user: 'admin', orgId: stage.world.org._id });
    const outage = await failWhile(page, '/api/v1/user');
    await page.goto('/teams');
    const panel = page.getByRole('main').getByRole('alert').filter({ hasText: 'Could not get user' });
    await expectVisible(panel.getByText('Wharf is restarting'));
    await snap(page, 'user-error-panel');
    outage.failing = false;
    await panel.getByRole('button', { name: 'Retry' }).click();
    await expectVisible(page.getByRole('heading', { name: 'Teams' }));
    await context.close();
  });

  it('asks again by itself when the tab is back in focus', async () => {
    const { context, page } = await visit(stage, { user: 'admin', orgId: stage.world.org._id });
    const outage = await failWhile(page, teamApi());
    await page.goto(teamPath());
    await expectVisible(failedPanel(page));
    outage.failing = false;
    const asked = page.waitForResponse((response) => new URL(response.url()).pathname === teamApi());
    // What the browser tells the page when the person comes back to its tab.
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange', { bubbles: true })));
    expect((await asked).status()).toBe(200);
    await expectVisible(page.getByRole('heading', { name: stage.world.team.name }));
    await context.close();
  });

  it('asks again by itself when the network is back', async () => {
    const { context, page } = await visit(stage, { user: 'admin', orgId: stage.world.org._id });
    const outage = await failWhile(page, teamApi());
    await page.goto(teamPath());
    await expectVisible(failedPanel(page));
    outage.failing = false;
    await context.setOffline(true);
    const asked = page.waitForResponse((response) => new URL(response.url()).pathname === teamApi());
    await context.setOffline(false);
    expect((await asked).status()).toBe(200);
    await expectVisible(page.getByRole('heading', { name: stage.world.team.name }));
    await context.close();
  });

  it('shows a page that failed to render with a way back, and the sidebar still works', async () => {
    const { context, page } = await visit(stage, { user: 'admin', orgId: stage.world.org._id });
    await answerMalformed(page, teamApi());
    await page.goto(teamPath());
    const crash = page.getByRole('alert').filter({ hasText: 'This page failed to show' });
    await expectVisible(crash);
    await expectVisible(crash.getByRole('button', { name: 'Reload' }));
    expect(await crash.getByRole('link', { name: 'Go home' }).getAttribute('href')).toBe('/');
    // Crash reports are off here: the notice does not claim one was sent.
    expect(await crash.getByText(/sent a crash report/).count()).toBe(0);
    await snap(page, 'page-crash');
    await page.getByRole('navigation', { name: 'Teams and sites' }).getByRole('link', { name: 'Teams' }).click();
    await expectPath(page, '/');
    await expectVisible(page.getByRole('heading', { name: 'Teams' }));
    await context.close();
  });

  it('links home from an invitation that cannot be opened', async () => {
    const { context, page } = await visit(stage, { user: 'admin', orgId: stage.world.org._id });
    await page.goto('/invite?token=not-a-real-token');
    const failure = page.getByRole('alert').filter({ hasText: 'Could not open this invitation' });
    await expectVisible(failure);
    await snap(page, 'invite-unknown');
    await failure.getByRole('link', { name: 'Go home' }).click();
    await expectPath(page, '/');
    await expectVisible(page.getByRole('heading', { name: 'Teams' }));
    await context.close();
  });

  describeInBrowser('with crash reports on', () => {
    const dsn = 'http://public@127.0.0.1:9/1';
    let reporting: TestServer;
    beforeAll(async () => {
      reporting = await startTestServer({ serveConsole: true, env: { WHARF_CRASH_REPORT_DSN: dsn } });
    });
    afterAll(() => reporting?.close());

    it('reports a page that failed to render', async () => {
      const owner = await signedIn(reporting.url, 'owner');
      const org = expectStatus(await owner.post('/api/v1/orgs', { name: 'Reported' }), 200);
      const team = expectStatus(await owner.post(`/api/v1/orgs/${org._id}/teams`, { name: 'Crashing' }), 200);
      const { context, page } = await visit(
        { browser: stage.browser, server: reporting },
        { user: 'owner', orgId: org._id },
      );
      // The crash-report service of this installation, as far as the page can tell.
      await page.route(`${new URL(dsn).origin}/**`, (route) => route.fulfill({ status: 200, json: {} }));
      await page.goto('/');
      await page
        .getByRole('dialog', { name: 'Send crash reports?' })
        .getByRole('button', { name: 'Send crash reports' })
        .click();
      await page.waitForFunction(() => '__SENTRY__' in globalThis);

      await answerMalformed(page, `/api/v1/teams/${team._id}`);
      const sent = page.waitForRequest(
        (request) => request.url().startsWith(new URL(dsn).origin) && /"type":"event"/.test(request.postData() ?? ''),
      );
      await page.getByRole('navigation', { name: 'Teams and sites' }).getByRole('link', { name: 'Crashing' }).click();
      const crash = page.getByRole('alert').filter({ hasText: 'This page failed to show' });
      await expectVisible(crash.getByText(/sent a crash report about it/));
      const report = (await sent).postData() ?? '';
      expect(report).toContain('TypeError');
      expect(report).toContain('componentStack');
      await context.close();
    });
  });
});
