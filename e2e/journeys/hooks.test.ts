import { expectStatus } from '@wharf/server/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeInBrowser } from '../support/browser.ts';
import {
  expectHidden,
  expectPath,
  expectVisible,
  fieldError,
  openStage,
  type Stage,
  snap,
  visit,
} from '../support/journey.ts';

async function chooseType(page: Page, type: string) {
  await page.getByRole('textbox', { name: /^Type/ }).click();
  await page.getByRole('option', { name: type, exact: true }).click();
}

describeInBrowser('hooks of organizations, teams and sites', () => {
  let stage: Stage;
  beforeAll(async () => {
    stage = await openStage();
  });
  afterAll(() => stage?.close());

  it('adds a web hook to the organization with every validation message, edits it and deletes it', async () => {
    const { context, page } = await visit(stage, { user: 'admin', orgId: stage.world.org._id });
    await page.goto('/org');
    await page.getByRole('tab', { name: 'Hooks' }).click();
    await expectPath(page, '/org/hooks');
    await expectVisible(page.getByText('No hooks'));
    await snap(page, 'org-hooks-empty');
    await page.getByRole('link', { name: 'Add hook' }).click();
    await expectPath(page, '/org/hooks/add');
    const create = page.getByRole('button', { name: 'Create hook' });
    await create.click();
    await expect.poll(() => fieldError(page, 'Type').textContent()).toBe('Input is required');

    await chooseType(page, 'Web');
    const secret = await page.getByRole('textbox', { name: 'Secret', exact: true }).inputValue();
    expect(secret).toMatch(/^[A-Za-z0-9]{32}$/);
    await page.getByRole('textbox', { name: /^Name/ }).fill('x'.repeat(1001));
    await page.getByRole('textbox', { name: 'Secret', exact: true }).fill('');
    await create.click();
    await expect.poll(() => fieldError(page, 'Name').textContent()).toBe('Max length is 1000');
    await expect.poll(() => fieldError(page, 'URL').textContent()).toBe('Input is required');
    await expect.poll(() => fieldError(page, 'Secret').textContent()).toBe('Input is required');
    await page.getByRole('textbox', { name: /^URL/ }).fill('ftp://example.com');
    await create.click();
    await expect.poll(() => fieldError(page, 'URL').textContent()).toBe('Must be an http(s) URL');

    await page.getByRole('textbox', { name: /^Name/ }).fill('Deploy notices');
    await page.getByRole('textbox', { name: /^URL/ }).fill('https://example.com/wharf');
    await page.getByRole('textbox', { name: 'Secret', exact: true }).fill(secret);
    await create.click();
    expect(await fieldError(page, 'Events').textContent()).toBe('Choose at least one event');
    // Organization hooks hear the organization's, its teams' and its sites' events, grouped by entity.
    await expectVisible(page.getByText('Invitations · 0/4', { exact: true }));
    await expectVisible(page.getByText('Organization created', { exact: true }));
    await expectVisible(page.getByText('Release uploaded', { exact: true }));
    await page.getByText('Release uploaded', { exact: true }).click();
    await page.getByText('Team added', { exact: true }).click();
    await snap(page, 'org-hook-add');
    await create.click();
    await page.waitForURL(/\/org\/hooks\/[^/]+\/settings$/);
    const hookId = new URL(page.url()).pathname.split('/')[3]!;
    await expectVisible(page.getByRole('heading', { name: 'Deploy notices' }));

    const stored = expectStatus(
      await stage.world.clients.owner.get(`/api/v1/orgs/${stage.world.org._id}/hooks/${hookId}`),
      200,
    );
    expect(stored).toMatchObject({
      type: 'web',
      name: 'Deploy notices',
      config: { url: 'https://example.com/wharf', secret },
    });
    expect([...stored.events].sort()).toEqual(['site_release_created', 'team_added']);

    const save = page.getByRole('button', { name: 'Save' });
    await expect.poll(() => save.isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Select all' }).click();
    await expect.poll(() => save.isDisabled()).toBe(false);
    await save.click();
    await expectVisible(page.locator('button:disabled', { hasText: 'Save' }));
    await snap(page, 'org-hook-settings');

    await page.getByRole('tab', { name: 'Deliveries' }).click();
    await expectPath(page, `/org/hooks/${hookId}/deliveries`);
    // Saving it with every event chosen was itself an event it hears: its delivery shows (its outcome
    // depends on whether this machine reaches example.com; hookDeliveries.test.ts covers outcomes).
    await expectVisible(page.getByRole('button', { name: /: Organization hook updated, attempt 1,/ }));
    await snap(page, 'org-hook-deliveries');

    await page.getByRole('button', { name: 'Hook actions' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete hook' }).getByRole('button', { name: 'Delete hook' }).click();
    await expectPath(page, '/org/hooks');
    await expectVisible(page.getByText('No hooks'));
    await context.close();
  });

  it('adds an email hook to a team, offering only team and site events', async () => {
    const { context, page } = await visit(stage, { user: 'admin', orgId: stage.world.org._id });
    await page.goto(`/teams/${stage.world.team._id}/hooks`);
    await expectVisible(page.getByText('No hooks'));
    await page.getByRole('link', { name: 'Add hook' }).click();
    await chooseType(page, 'Email');
    await expectVisible(page.getByRole('alert').filter({ hasText: 'Mail is off on this server' }));
    await snap(page, 'hook-email-mail-off');
    await expectVisible(page.getByText('Team member added', { exact: true }));
    expect(await page.getByText('Organization created', { exact: true }).count()).toBe(0);
    await page.getByRole('textbox', { name: /^To/ }).fill('not-an-email');
    await page.getByRole('button', { name: 'Create hook' }).click();
    await expect.poll(() => fieldError(page, 'To').textContent()).toBe('Invalid email');
    await page.getByRole('textbox', { name: /^To/ }).fill('web-team@example.com');
    await page.getByText('Team member added', { exact: true }).click();
    await page.getByRole('button', { name: 'Create hook' }).click();
    await page.waitForURL(/\/teams\/[^/]+\/hooks\/[^/]+\/settings$/);
    await expectVisible(page.getByRole('heading', { name: 'Email' }));
    await page.getByRole('link', { name: 'Hooks' }).first().click();
    await expectVisible(page.getByRole('link', { name: 'Hook Email' }));
    await snap(page, 'team-hooks');
    await context.close();
  });

  it('adds a Slack hook to a site as a member of its team, and a Mattermost one', async () => {
    const { context, page } = await visit(stage, { user: 'teammate', orgId: stage.world.org._id });
    const base = `/sites/${stage.world.site._id}/hooks`;
    await page.goto(base);
    await expectVisible(page.getByText('No hooks'));
    for (const [type, name] of [
      ['Slack', 'Releases to #web'],
      ['Mattermost', 'Releases to ~web'],
    ] as const) {
      await page.goto(`${base}/add`);
      await chooseType(page, type);
      expect(await page.getByText('Team added', { exact: true }).count()).toBe(0);
      await page.getByRole('textbox', { name: /^Name/ }).fill(name);
      await page.getByRole('button', { name: 'Create hook' }).click();
      await expect.poll(() => fieldError(page, 'URL').textContent()).toBe('Input is required');
      await page.getByRole('textbox', { name: /^URL/ }).fill('https://hooks.example.com/services/T000');
      await page.getByText('Release uploaded', { exact: true }).click();
      await page.getByRole('button', { name: 'Create hook' }).click();
      await expectVisible(page.getByRole('heading', { name }));
    }
    await page.goto(base);
    await expectVisible(page.getByRole('link', { name: /^Hook Releases to #web/ }));
    await expectVisible(page.getByRole('link', { name: /^Hook Releases to ~web/ }));
    await snap(page, 'site-hooks');
    await page.getByRole('link', { name: /^Hook Releases to #web/ }).click();
    await page.getByRole('button', { name: 'Hook actions' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete hook' }).getByRole('button', { name: 'Delete hook' }).click();
    await expectPath(page, base);
    await expectHidden(page.getByRole('link', { name: /^Hook Releases to #web/ }));
    await context.close();
  });
});
