import { expectStatus } from '@wharf/server/testing';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { expectAccessible } from '../support/accessibilityRoutes.ts';
import { describeInBrowser } from '../support/browser.ts';
import { openStage, type Stage } from '../support/journey.ts';
import { type Auditor, openAuditor } from '../support/lighthouse.ts';

describeInBrowser("Lighthouse's accessibility is 100 on the console's other pages, light and dark", () => {
  let stage: Stage;
  beforeAll(async () => {
    stage = await openStage();
  });
  afterAll(() => stage?.close());

  describe('signed in', () => {
    let auditor: Auditor;
    let routes: string[];
    beforeAll(async () => {
      const { owner } = stage.world.clients;
      const team = `/teams/${stage.world.team._id}`;
      const token = expectStatus(
        await owner.post('/api/v1/api-tokens', { name: 'Backups', scopes: ['site_read'] }),
        200,
      );
      routes = [
        '/',
        '/orgs',
        '/teams',
        ...['sites', 'members', 'settings'].map((tab) => `${team}/${tab}`),
        ...['settings', 'staff', 'hooks', 'audit'].map((tab) => `/org/${tab}`),
        ...['api-tokens', 'api-tokens/add', `api-tokens/${token._id}`, 'security', 'hooks'].map(
          (tab) => `/user/${tab}`,
        ),
        '/legal/terms',
        '/legal/privacy',
        '/no/such/page',
      ];
      auditor = await openAuditor(stage, 'owner');
    });
    afterAll(() => auditor?.close());

    it('audits the home, the organization, its teams, the user settings and the legal pages', async () => {
      await expectAccessible(auditor, routes);
    }, 600_000);
  });

  describe('signed out', () => {
    let auditor: Auditor;
    beforeAll(async () => {
      auditor = await openAuditor(stage, null);
    });
    afterAll(() => auditor?.close());

    it('audits the sign-in page', async () => {
      await expectAccessible(auditor, ['/login']);
    }, 120_000);
  });
});
