import { expectStatus, uploadRelease } from '@wharf/server/testing';
import { afterAll, beforeAll, it } from 'vitest';
import { expectAccessible } from '../support/accessibilityRoutes.ts';
import { describeInBrowser } from '../support/browser.ts';
import { openStage, type Stage } from '../support/journey.ts';
import { type Auditor, openAuditor } from '../support/lighthouse.ts';

describeInBrowser("Lighthouse's accessibility is 100 on every page of a site, light and dark", () => {
  let stage: Stage;
  let auditor: Auditor;
  let routes: string[];

  beforeAll(async () => {
    stage = await openStage();
    const { owner } = stage.world.clients;
    const site = stage.world.site;
    const files = [
      { name: 'index.html', content: '<form name="contact" data-wharf-form><input name="email"></form>' },
      { name: '_redirects', content: '/old /new 301\n' },
    ];
    const release = await uploadRelease(owner, site._id, 'v1', ['main', 'preview'], files);
    const branches = expectStatus(await owner.get(`/api/v1/sites/${site._id}/branches`), 200);
    const preview = branches.find((branch: { name: string }) => branch.name === 'preview');
    expectStatus(await owner.post(`/api/v1/sites/${site._id}/tokens`, { name: 'CI' }), 200);
    const hook = expectStatus(
      await owner.post(`/api/v1/sites/${site._id}/hooks`, {
        type: 'email',
        name: 'Deploys',
        events: ['site_release_created'],
        config: { to: 'team@example.test' },
      }),
      200,
    );
    const base = `/sites/${site._id}`;
    const branch = `${base}/branches/${preview._id}`;
    routes = [
      ...['branches', 'releases', `releases/${release._id}`, 'builds', 'traffic', 'submissions', 'tokens'].map(
        (tab) => `${base}/${tab}`,
      ),
      ...['hooks', 'hooks/add', `hooks/${hook._id}`, `hooks/${hook._id}/deliveries`].map((tab) => `${base}/${tab}`),
      ...['settings', 'settings/headers', 'settings/security', 'settings/repository'].map((tab) => `${base}/${tab}`),
      ...['', '/redirects', '/headers', '/forms', '/settings'].map((tab) => `${branch}${tab}`),
    ];
    auditor = await openAuditor(stage, 'owner');
  });
  afterAll(async () => {
    await auditor?.close();
    await stage?.close();
  });

  it('audits the pages of a site, its branches, releases, hooks and settings', async () => {
    await expectAccessible(auditor, routes);
  }, 600_000);
});
