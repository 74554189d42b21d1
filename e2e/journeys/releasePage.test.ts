import { expectStatus, siteRequest, TestClient, tarGz, uploadForm, uploadRelease } from '@wharf/server/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeInBrowser } from '../support/browser.ts';
import { expectVisible, openStage, type Stage, snap, visit } from '../support/journey.ts';

const SHA = '7d1e4c2b9a8f6e5d4c3b2a1908f7e6d5c4b3a291';

/** What a CI job sends: the build, and where it came from as the CLI reads it from the job's variables. */
const CI_SOURCE = {
  commit: SHA,
  message: 'Show the new pricing plans\n\nThe table now lists the yearly price beside the monthly one.',
  branch: 'pricing-table',
  author: 'Ada Lovelace',
  commitUrl: `https://git.example.com/acme/shop/commit/${SHA}`,
  pullRequest: 31,
  pullRequestUrl: 'https://git.example.com/acme/shop/pulls/31',
  ci: 'Forgejo Actions',
  ciRunUrl: 'https://git.example.com/acme/shop/actions/runs/77',
};

const BUILD = [
  { name: 'index.html', content: '<!doctype html><title>Shop</title><h1>Pricing</h1>' },
  { name: 'assets/app.css', content: `body { font: 16px system-ui }\n${'.plan { margin: 1rem }\n'.repeat(300)}` },
  { name: 'assets/app.js', content: `console.log("shop");\n${'// plans\n'.repeat(400)}` },
  { name: '_redirects', content: '/old-pricing  /  301\n/broken\n' },
];

describeInBrowser('a release has its own page and address, its source, files, and Publish', () => {
  let stage: Stage;
  let site: { _id: string; name: string; url: string };
  let release: { _id: string; url: string; name: string };
  /** A site never deployed, first by name ('aaa-…') and last by last deploy. */
  let quiet: { name: string };
  beforeAll(async () => {
    stage = await openStage();
    const { owner } = stage.world.clients;
    quiet = expectStatus(
      await owner.post(`/api/v1/teams/${stage.world.team._id}/sites`, { name: stage.world.unique('aaa') }),
      200,
    );
    site = expectStatus(
      await owner.post(`/api/v1/teams/${stage.world.team._id}/sites`, { name: stage.world.unique('shop') }),
      200,
    );
    await uploadRelease(owner, site._id, 'launch', ['main'], [{ name: 'index.html', content: '<h1>Launch</h1>' }]);
    const token = expectStatus(await owner.post(`/api/v1/sites/${site._id}/tokens`, { name: 'Forgejo CI' }), 200);
    const ci = new TestClient(stage.server.url).withToken(token.value);
    const form = uploadForm(await tarGz(BUILD), 'pricing preview', []);
    form.append('draft', 'true');
    form.append('source', JSON.stringify(CI_SOURCE));
    release = expectStatus(await ci.request('POST', `/api/v1/sites/${site._id}/releases`, form), 200);
    // A CI job whose build step wrote no archive: refused, and kept as a failed deploy.
    const broken = uploadForm(Buffer.from('not an archive'), 'nightly build', ['main']);
    expect((await ci.request('POST', `/api/v1/sites/${site._id}/releases`, broken)).status).toBe(400);
  });
  afterAll(() => stage?.close());

  it('opens a draft from the releases list, shows where it came from, lists its files, and publishes it', async () => {
    const { context, page } = await visit(stage, { user: 'owner', orgId: stage.world.org._id });
    await page.goto(`/sites/${site._id}/releases`);
    await expectVisible(page.getByText(/7d1e4c2 by Ada Lovelace/));
    const failed = page.getByRole('region', { name: 'Failed deploys' });
    await expectVisible(failed.getByText('nightly build'));
    await failed.getByRole('button', { name: 'Log' }).click();
    await expectVisible(failed.getByText(/started: an upload of a tar.gz/));
    await snap(page, 'releases-failed-deploy');
    await page.getByRole('link', { name: 'pricing preview' }).click();
    await expectVisible(page.getByRole('heading', { name: 'pricing preview' }));
    await expectVisible(page.getByLabel('Release link'));
    expect(await page.getByLabel('Release link').getAttribute('href')).toBe(release.url);
    await expectVisible(page.getByText('draft', { exact: true }));
    await expectVisible(page.getByText('Show the new pricing plans'));
    await expectVisible(page.getByRole('link', { name: 'Forgejo Actions' }));
    expect(await page.getByRole('link', { name: '#31' }).getAttribute('href')).toBe(CI_SOURCE.pullRequestUrl);
    await expectVisible(page.getByText('Site token “Forgejo CI”'));
    await expectVisible(page.getByText(/_redirects:2/));
    const files = page.getByRole('table', { name: 'Release files' });
    await expectVisible(files.getByText('assets/app.css'));
    expect(await files.getByRole('row').count()).toBe(5);
    await snap(page, 'release-page');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download as tar.gz' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${site.name}-pricing-preview.tar.gz`);
    expect(await download.failure()).toBeNull();

    await page.getByRole('button', { name: 'Publish' }).click();
    const dialog = page.getByRole('dialog', { name: 'Publish “pricing preview”' });
    await expectVisible(dialog.getByRole('textbox', { name: 'Branch' }));
    expect(await dialog.getByRole('textbox', { name: 'Branch' }).inputValue()).toBe('main');
    await snap(page, 'release-publish');
    await dialog.getByRole('button', { name: 'Publish' }).click();
    await expectVisible(page.getByText('live', { exact: true }));
    await expectVisible(page.getByRole('link', { name: 'main' }));
    const port = Number(new URL(site.url).port);
    expect((await siteRequest(port, new URL(site.url).host, '/')).text).toContain('Pricing');
    expect((await siteRequest(port, new URL(release.url).host, '/')).headers['x-robots-tag']).toBe('noindex');

    // A password for the release's own address alone: the live site stays open.
    await page.getByRole('switch', { name: 'Password protection' }).click({ force: true });
    await page.getByRole('dialog', { name: 'Set password' }).getByRole('button', { name: 'Set password' }).click();
    await expectVisible(page.getByText(/The release's address asks visitors for a password/));
    await snap(page, 'release-password');
    expect((await siteRequest(port, new URL(release.url).host, '/')).status).toBe(401);
    expect((await siteRequest(port, new URL(site.url).host, '/')).status).toBe(200);

    // The site's header names what is live, and the organization's home lists the site with it.
    await expectVisible(page.getByRole('link', { name: 'pricing preview' }).first());
    await page.goto('/');
    const sites = page.getByRole('region', { name: 'Sites' });
    const row = sites.getByRole('link', { name: new RegExp(site.name) });
    await expectVisible(row);
    await expectVisible(row.getByText(/pricing preview · .* · 7d1e4c2 by Ada Lovelace/));
    await snap(page, 'home-live-sites');
    // The last deployed first; by name, the site never deployed comes first.
    const firstRow = () => sites.getByRole('link').first();
    expect(await firstRow().textContent()).toContain(site.name);
    const byName = sites.getByRole('group', { name: 'Sort sites' }).getByRole('button', { name: 'Name' });
    await byName.click();
    expect(await byName.getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => firstRow().textContent()).toContain(quiet.name);
    await expectVisible(sites.getByRole('link', { name: new RegExp(quiet.name) }).getByText('no release'));

    // From the site's header, the main branch goes back to the release it served before.
    await row.click();
    await page.getByRole('button', { name: 'Roll back' }).click();
    const rollBack = page.getByRole('dialog', { name: 'Roll back the main branch' });
    await expectVisible(rollBack.getByRole('radio', { name: 'launch' }));
    await snap(page, 'site-roll-back');
    await rollBack.getByRole('button', { name: 'Roll back' }).click();
    await expectVisible(page.getByRole('link', { name: 'launch' }).first());
    expect((await siteRequest(port, new URL(site.url).host, '/')).text).toContain('Launch');
    await context.close();
  });
});
