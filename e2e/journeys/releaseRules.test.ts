import { expectStatus, siteRequest, uploadRelease } from '@wharf/server/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeInBrowser } from '../support/browser.ts';
import { expectVisible, openStage, type Stage, snap, toast, visit } from '../support/journey.ts';

/** A build made for Netlify: a Vite-like single-page app with both rule files. */
const NETLIFY_BUILD = [
  { name: 'index.html', content: '<!doctype html><title>App</title><script src="/assets/index-4f9a2c.js"></script>' },
  { name: 'assets/index-4f9a2c.js', content: 'document.title = "App"' },
  { name: 'about.html', content: '<!doctype html><title>About</title>' },
  { name: '_redirects', content: '/blog/*  https://blog.example.com/:splat  301\n/legacy\n/*  /index.html  200\n' },
  {
    name: '_headers',
    content: '/assets/*\n  Cache-Control: public, max-age=31536000, immutable\n/*\n  X-Frame-Options: DENY\n',
  },
];

/** What a visitor gets at a served address, redirects not followed (to loopback, with the site's Host). */
async function served(_tab: Page, url: string) {
  const address = new URL(url);
  const answer = await siteRequest(Number(address.port), address.host, `${address.pathname}${address.search}`);
  return { status: answer.status, headers: answer.headers, text: answer.text };
}

describeInBrowser('release rules: problems on the release, redirect rules, header paths, pretty URLs', () => {
  let stage: Stage;
  let site: { _id: string; name: string; url: string; mainBranch: string };
  beforeAll(async () => {
    stage = await openStage();
    const { owner } = stage.world.clients;
    site = expectStatus(
      await owner.post(`/api/v1/teams/${stage.world.team._id}/sites`, { name: stage.world.unique('spa') }),
      200,
    );
    await uploadRelease(owner, site._id, 'netlify build', ['main'], NETLIFY_BUILD);
  });
  afterAll(() => stage?.close());

  it('serves a site built for Netlify as Netlify would, and lists the problem of its _redirects on the release', async () => {
    const { context, page } = await visit(stage, { user: 'teammate', orgId: stage.world.org._id });
    const deep = await served(page, new URL('/settings/profile', site.url).href);
    expect([deep.status, deep.text]).toEqual([200, NETLIFY_BUILD[0]!.content]);
    expect(deep.headers['x-frame-options']).toBe('DENY');
    const asset = await served(page, new URL('/assets/index-4f9a2c.js', site.url).href);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const blog = await served(page, new URL('/blog/hello?x=1', site.url).href);
    expect([blog.status, blog.headers.location]).toEqual([301, 'https://blog.example.com/hello?x=1']);
    expect((await served(page, new URL('/about', site.url).href)).text).toContain('About');
    expect((await served(page, new URL('/_redirects', site.url).href)).text).toBe(NETLIFY_BUILD[0]!.content);

    await page.goto(`/sites/${site._id}/releases`);
    await page.getByRole('button', { name: 'Rule problems of release netlify build' }).click();
    const problems = page.getByRole('dialog', { name: "Problems in the release's files" });
    await expectVisible(problems.getByText(/_redirects:2/));
    await snap(page, 'release-rule-problems');
    await context.close();
  });

  it('adds a redirect rule of the console with its status, which the branch answers', async () => {
    const { context, page } = await visit(stage, { user: 'teammate', orgId: stage.world.org._id });
    await page.goto(`/sites/${site._id}/branches/${site.mainBranch}/redirects`);
    await page.getByRole('button', { name: 'Add redirect' }).click();
    const rule = page.getByRole('group', { name: 'Redirect 1' });
    await rule.getByText('Redirect', { exact: true }).click();
    await rule.getByRole('textbox', { name: /^Path/ }).fill('/old-pricing');
    await rule.getByRole('textbox', { name: /^Target/ }).fill('/pricing');
    await rule.getByRole('textbox', { name: /^Status/ }).click();
    await page.getByRole('option', { name: '308 Permanent redirect' }).click();
    await snap(page, 'branch-redirect-rule');
    await page.getByRole('button', { name: 'Save' }).click();
    await expectVisible(toast(page, 'Saved branch redirects'));
    const answer = await served(page, new URL('/old-pricing', site.url).href);
    expect([answer.status, answer.headers.location]).toEqual([308, '/pricing']);
    await context.close();
  });

  it('saves a site header for a path pattern, and turns pretty URLs off', async () => {
    const { context, page } = await visit(stage, { user: 'teammate', orgId: stage.world.org._id });
    await page.goto(`/sites/${site._id}/settings/headers/edit`);
    await page.getByRole('button', { name: 'Add header' }).click();
    const header = page.getByRole('group', { name: 'Header 1' });
    await header.getByLabel('Path').fill('/assets/*');
    await header.getByLabel('Name').fill('Cache-Control');
    await header.getByLabel('Value').fill('no-store');
    await page.getByRole('button', { name: 'Save' }).click();
    await expectVisible(toast(page, 'Site saved'));
    await expectVisible(page.getByRole('table', { name: 'Site headers' }).getByText('/assets/*'));
    await snap(page, 'site-headers-with-path');
    expect((await served(page, new URL('/assets/index-4f9a2c.js', site.url).href)).headers['cache-control']).toBe(
      'no-store',
    );
    expect((await served(page, new URL('/', site.url).href)).headers['cache-control']).toBe(
      'public, max-age=0, must-revalidate',
    );

    expect((await served(page, new URL('/about.html', site.url).href)).status).toBe(308);
    await page.goto(`/sites/${site._id}/settings`);
    await page.getByRole('switch', { name: /Pretty URLs/ }).click();
    // The General card's Save: the Retention card below has one too.
    const general = page.locator('form').filter({ has: page.getByRole('heading', { name: 'General' }) });
    await general.getByRole('button', { name: 'Save' }).click();
    await expectVisible(toast(page, 'Site saved'));
    const about = await served(page, new URL('/about.html', site.url).href);
    expect([about.status, about.text]).toEqual([200, NETLIFY_BUILD[2]!.content]);
    await context.close();
  });
});
