import { SEARCH_DEBOUNCE_MS } from '@wharf/contract';
import { expectStatus, signedIn } from '@wharf/server/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeInBrowser } from '../support/browser.ts';
import { expectHidden, expectVisible, openStage, type Stage, snap, visit } from '../support/journey.ts';

/** The site searches the search dialog sends, as their query strings (the home's list of sites asks with a sort). */
function recordSearches(page: Page) {
  const searches: URLSearchParams[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (/^\/api\/v1\/orgs\/[^/]+\/sites$/.test(url.pathname) && !url.searchParams.has('sort'))
      searches.push(url.searchParams);
  });
  return searches;
}

describeInBrowser('site search (Ctrl or Cmd + K)', () => {
  let stage: Stage;
  beforeAll(async () => {
    stage = await openStage();
    const owner = await signedIn(stage.server.url, 'owner');
    for (const name of ['alpha-docs', 'alpha-shop', 'beta-blog'])
      expectStatus(await owner.post(`/api/v1/teams/${stage.world.team._id}/sites`, { name }), 200);
  });
  afterAll(() => stage?.close());

  it('opens with Ctrl+K and asks for page 0 of 10 sites', async () => {
    const { context, page } = await visit(stage, { user: 'member', orgId: stage.world.org._id });
    const searches = recordSearches(page);
    await page.goto('/');
    await expectVisible(page.getByRole('heading', { name: 'Teams' }));
    await page.keyboard.press('Control+KeyK');
    const input = page.getByRole('textbox', { name: 'Search sites' });
    await expectVisible(input);
    await expectVisible(page.getByRole('button', { name: /beta-blog/ }));
    expect(searches).toHaveLength(1);
    expect(searches[0]?.get('page')).toBe('0');
    expect(searches[0]?.get('size')).toBe('10');
    expect(searches[0]?.has('search')).toBe(false);
    await snap(page, 'search');
    await context.close();
  });

  it('filters only from 3 characters, 200 ms after the last keystroke', async () => {
    const { context, page } = await visit(stage, { user: 'member', orgId: stage.world.org._id });
    const searches = recordSearches(page);
    // The page's timers run on a clock this test can move on, so that a debounce can be seen to have passed.
    await page.clock.install();
    await page.goto('/');
    await page.getByRole('button', { name: 'Search sites' }).click();
    const input = page.getByRole('textbox', { name: 'Search sites' });
    await expectVisible(page.getByRole('button', { name: /beta-blog/ }));
    const before = searches.length;
    // Stopped (a second on, nothing pending yet) while typing: on a busy machine the real time
    // between two keystrokes can exceed the debounce; only the moves below let it pass.
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);

    await input.pressSequentially('al', { delay: 50 });
    await expectVisible(page.getByText('Search needs at least 3 characters'));
    await page.clock.runFor(SEARCH_DEBOUNCE_MS);
    await expectVisible(page.getByRole('button', { name: /beta-blog/ }));

    const sent = page.waitForRequest((request) => new URL(request.url()).searchParams.get('search') === 'alpha-');
    await input.pressSequentially('pha-', { delay: 60 });
    await page.clock.runFor(SEARCH_DEBOUNCE_MS - 1);
    expect(searches.length).toBe(before);
    await page.clock.runFor(1);
    await sent;
    await page.clock.resume();
    // alpha-shop was in the list before the search too: the list filtered is the one without beta-blog.
    await expectHidden(page.getByRole('button', { name: /beta-blog/ }));
    await expectVisible(page.getByRole('button', { name: /alpha-shop/ }));
    // Any search for 'al' (its debounce has passed) or for a term typed on the way would have gone
    // out before this one: typing faster than the debounce sends only the last term.
    expect(searches.slice(before).map((query) => query.get('search'))).toEqual(['alpha-']);
    expect(await page.getByRole('button', { name: /beta-blog/ }).count()).toBe(0);

    await input.fill('zzz-nothing');
    await expectVisible(page.getByText('No results'));
    await snap(page, 'search-empty');
    await context.close();
  });

  it('goes to the site clicked', async () => {
    const { context, page } = await visit(stage, { user: 'member', orgId: stage.world.org._id });
    await page.goto('/');
    await expectVisible(page.getByRole('heading', { name: 'Teams' }));
    await page.keyboard.press('Meta+KeyK');
    await page.getByRole('textbox', { name: 'Search sites' }).fill('beta');
    await page.getByRole('button', { name: /beta-blog/ }).click();
    await page.waitForURL(/\/sites\/[^/]+\/branches$/);
    await expectVisible(page.getByRole('heading', { name: 'beta-blog' }));
    await expectHidden(page.getByRole('dialog'));
    await context.close();
  });
});
