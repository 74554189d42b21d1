import { expectStatus, siteRequest, uploadRelease } from '@wharf/server/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeInBrowser } from '../support/browser.ts';
import { expectHidden, expectVisible, openStage, type Stage, snap, visit } from '../support/journey.ts';

const BUILD = [
  { name: 'index.html', content: '<!doctype html><title>Docs</title><h1>Docs</h1>' },
  { name: 'guide/index.html', content: '<h1>Guide</h1>' },
  { name: 'assets/app.js', content: 'console.log("docs")' },
];

describeInBrowser("a site's traffic: paths, pages not found, referrers and branches, by hour or day", () => {
  let stage: Stage;
  let site: { _id: string; name: string; url: string };

  beforeAll(async () => {
    stage = await openStage();
    const { owner } = stage.world.clients;
    site = expectStatus(
      await owner.post(`/api/v1/teams/${stage.world.team._id}/sites`, { name: stage.world.unique('docs') }),
      200,
    );
    await uploadRelease(owner, site._id, 'v1', ['main', 'next'], BUILD);
    // Visitors: some from a search engine and a forum, a scanner asking for what is not there, a preview looked at.
    const port = Number(new URL(stage.server.url).port);
    const main = new URL(site.url).host;
    const ask = (host: string, path: string, referer?: string) =>
      siteRequest(port, host, path, { headers: referer ? { referer } : {} });
    for (let i = 0; i < 5; i++) await ask(main, '/', 'https://search.example.net/?q=docs');
    for (let i = 0; i < 3; i++) await ask(main, '/guide/', 'https://forum.example.org/t/42');
    await ask(main, '/assets/app.js', `http://${main}/`);
    for (const path of ['/wp-login.php', '/.env', '/wp-login.php']) expect((await ask(main, path)).status).toBe(404);
    await ask(`next.${main}`, '/guide/');
  });
  afterAll(() => stage?.close());

  it('shows what was served, and narrows it to one branch', async () => {
    const { page } = await visit(stage, { user: 'owner', orgId: stage.world.org._id });
    await page.goto(`/sites/${site._id}/branches`);
    await page.getByRole('link', { name: 'Paths, referrers and branches' }).click();
    await expectVisible(page.getByRole('tab', { name: 'Traffic', selected: true }));

    const totals = page.getByLabel('Totals');
    await expectVisible(totals.getByText('13', { exact: true }));
    const paths = page.getByRole('table', { name: 'Top paths' });
    await expectVisible(paths.getByRole('row', { name: '/ 5' }));
    await expectVisible(paths.getByRole('row', { name: '/guide/ 4' }));
    await expectVisible(page.getByRole('table', { name: 'Not found' }).getByRole('row', { name: '/wp-login.php 2' }));
    const referrers = page.getByRole('table', { name: 'Referrers' });
    await expectVisible(referrers.getByRole('row', { name: 'search.example.net 5' }));
    expect(await referrers.getByText(new URL(site.url).hostname).count()).toBe(0);
    await snap(page, 'traffic-site');

    await page.getByRole('table', { name: 'Branches' }).getByRole('button', { name: 'next' }).click();
    await expect.poll(() => page.url()).toMatch(/[?&]branch=/);
    await expectVisible(page.getByRole('table', { name: 'Top paths' }).getByRole('row', { name: '/guide/ 1' }));
    await expectVisible(page.getByText('No request was answered 404 in this range.'));
    await expectHidden(page.getByRole('table', { name: 'Branches' }));

    await page.getByText('24 hours').click();
    await expect.poll(() => page.url()).toMatch(/[?&]range=24h/);
    await expectVisible(page.getByText(/^Requests per hour/));
    await snap(page, 'traffic-branch-day');
  });
});
