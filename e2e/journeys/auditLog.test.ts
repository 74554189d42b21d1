import { expectStatus, signedIn } from '@wharf/server/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeInBrowser } from '../support/browser.ts';
import {
  expectPath,
  expectVisible,
  failureToast,
  openStage,
  PHONE,
  type Stage,
  snap,
  visit,
} from '../support/journey.ts';

const unavailable = {
  statusCode: 503,
  code: 'SERVER_UNAVAILABLE',
  error: 'Service Unavailable',
  message: 'Wharf is restarting',
};

describeInBrowser('audit log (/org/audit)', () => {
  let stage: Stage;
  let docs: { _id: string; name: string };

  beforeAll(async () => {
    stage = await openStage();
    const { world } = stage;
    const owner = await signedIn(stage.server.url, 'owner');
    const site = `/api/v1/sites/${world.site._id}`;
    docs = expectStatus(await owner.post(`/api/v1/teams/${world.team._id}/sites`, { name: world.unique('docs') }), 200);
    for (const name of ['preview', 'staging', 'next', 'canary', 'beta', 'alpha']) {
      expectStatus(await owner.post(`${site}/branches`, { name }), 200);
    }
    expectStatus(await owner.put(`/api/v1/sites/${docs._id}/password`, { password: 'correct-horse' }), 200);
  });
  afterAll(() => stage?.close());

  it('lists what happened, newest first, and opens what an entry is about', async () => {
    const { world } = stage;
    const { context, page } = await visit(stage, { user: 'admin', orgId: world.org._id });
    await page.goto('/org');
    await page.getByRole('tab', { name: 'Audit log' }).click();
    await expectPath(page, '/org/audit');
    const rows = page.getByRole('main').getByRole('article');
    await expectVisible(rows.first());
    await expect.poll(() => rows.first().textContent()).toContain(`owner set a password on ${docs.name}`);
    await expect.poll(() => rows.count()).toBe(20);
    await expectVisible(page.getByText(/^20 of \d+ events$/));
    await snap(page, 'org-audit');
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => rows.count()).toBeGreaterThan(20);
    await expect.poll(() => rows.last().textContent()).toContain('owner created the organization Acme');
    await page.getByRole('link', { name: `Open: owner added the branch canary to ${world.site.name}` }).click();
    await expect.poll(() => new URL(page.url()).pathname).toMatch(new RegExp(`^/sites/${world.site._id}/branches/`));
    await context.close();
  });

  it('filters by site and by event, and says when nothing matches', async () => {
    const { world } = stage;
    const { context, page } = await visit(stage, { user: 'owner', orgId: world.org._id });
    await page.goto('/org/audit');
    const rows = page.getByRole('main').getByRole('article');
    await expectVisible(rows.first());
    await page.getByRole('textbox', { name: 'Site' }).fill(docs.name.slice(0, 6));
    await page.getByRole('option', { name: docs.name }).click();
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.allTextContents()).toEqual([
      expect.stringContaining(`owner set a password on ${docs.name}`),
      expect.stringContaining(`owner created the site ${docs.name}`),
    ]);
    expect(new URL(page.url()).searchParams.get('site')).toBe(docs._id);
    await snap(page, 'org-audit-site');
    await page.getByRole('textbox', { name: 'Event' }).click();
    await page.getByRole('option', { name: 'Site deleted' }).click();
    await expectVisible(page.getByRole('heading', { name: 'No events' }));
    await snap(page, 'org-audit-empty');
    await page.reload();
    await expectVisible(page.getByRole('heading', { name: 'No events' }));
    await expect.poll(() => page.getByRole('textbox', { name: 'Site' }).inputValue()).toBe(docs.name);
    await context.close();
  });

  it('fits a phone, and says so when the log cannot be listed', async () => {
    const { context, page } = await visit(stage, { user: 'admin', orgId: stage.world.org._id, viewport: PHONE });
    await page.goto('/org/audit');
    const rows = page.getByRole('main').getByRole('article');
    await expectVisible(rows.first());
    const widest = await page.locator('html').evaluate((html) => html.scrollWidth);
    expect(widest).toBeLessThanOrEqual(PHONE.width);
    await page.route(
      (url) => url.pathname.endsWith('/audit'),
      (route) => route.fulfill({ status: 503, json: unavailable }),
    );
    await page.getByRole('textbox', { name: 'Event' }).click();
    await page.getByRole('option', { name: 'Site added' }).click();
    await expectVisible(failureToast(page, 'list audit log', 'Wharf is restarting'));
    await expectVisible(page.getByText('Could not list audit log'));
    await context.close();
  });
});
