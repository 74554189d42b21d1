import { expectStatus, uploadRelease } from '@wharf/server/testing';
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
  toast,
  visit,
} from '../support/journey.ts';

const page = (text: string) => [{ name: 'index.html', content: `<!doctype html><h1>${text}</h1>` }];

/** What the browser shows at a served address. */
async function served(tab: Page, url: string) {
  const answer = await tab.goto(url);
  return { status: answer?.status(), text: (await tab.locator('body').textContent())?.trim() };
}

describeInBrowser('branches: add, roll back and forward, password, redirects, headers, forms', () => {
  let stage: Stage;
  let siteId: string;
  let siteName: string;
  beforeAll(async () => {
    // The redirects journey proxies to this very server, on loopback: allowed here on purpose.
    stage = await openStage({ WHARF_ALLOW_PRIVATE_UPSTREAMS: 'on' });
    const { owner } = stage.world.clients;
    const site = expectStatus(
      await owner.post(`/api/v1/teams/${stage.world.team._id}/sites`, { name: stage.world.unique('shop') }),
      200,
    );
    siteId = site._id;
    siteName = site.name;
    await uploadRelease(owner, siteId, 'v1', ['main'], page('Version one'));
  });
  afterAll(() => stage?.close());

  it('adds a branch with its name checked, rolls it back and forward, and the branch URL follows', async () => {
    const { context, page: tab } = await visit(stage, { user: 'teammate', orgId: stage.world.org._id });
    await tab.goto(`/sites/${siteId}`);
    await expectPath(tab, `/sites/${siteId}/branches`);
    await expectVisible(tab.getByLabel('Branch main').getByText('main', { exact: true }));
    await tab.getByRole('button', { name: 'Add branch' }).click();
    const modal = tab.getByRole('dialog', { name: 'Add branch' });
    await modal.getByRole('button', { name: 'Add branch' }).click();
    await expect.poll(() => fieldError(modal, 'Name').textContent()).toBe('Input is required');
    await modal.getByLabel('Name').fill('main');
    await expectVisible(fieldError(modal, 'Name').filter({ hasText: 'Branch name is taken' }));
    await modal.getByLabel('Name').fill('x'.repeat(1001));
    await modal.getByRole('button', { name: 'Add branch' }).click();
    await expect.poll(() => fieldError(modal, 'Name').textContent()).toBe('Max length is 1000');
    await modal.getByLabel('Name').fill('staging');
    await expectVisible(modal.getByLabel('Name is free'));
    await modal.getByRole('textbox', { name: 'Release' }).click();
    await tab.getByRole('option', { name: /^v1 ·/ }).click();
    await snap(tab, 'branch-add');
    await modal.getByRole('button', { name: 'Add branch' }).click();
    await tab.waitForURL(/\/branches\/[^/]+\/releases$/);
    await expectVisible(tab.getByRole('heading', { name: 'staging' }));
    await expectVisible(tab.getByLabel('Release v1').getByText('current'));

    const branches = expectStatus(await stage.world.clients.owner.get(`/api/v1/sites/${siteId}/branches`), 200);
    const staging = branches.find((branch: { name: string }) => branch.name === 'staging');
    expect(staging.url).toBe(`http://staging.${siteName}.localhost:${new URL(stage.server.url).port}/`);

    await uploadRelease(stage.world.clients.owner, siteId, 'v2', ['staging'], page('Version two'));
    await expectVisible(tab.getByLabel('Release v2').getByText('current'));
    await snap(tab, 'branch-releases');

    await tab.getByRole('button', { name: 'Roll back to v1' }).click();
    const confirm = tab.getByRole('dialog', { name: 'Roll back' });
    await snap(tab, 'branch-roll-back');
    await confirm.getByRole('button', { name: 'Roll back' }).click();
    await expectVisible(tab.getByLabel('Release v1').getByText('current'));
    const servedTab = await context.newPage();
    expect(await served(servedTab, staging.url)).toEqual({ status: 200, text: 'Version one' });

    await tab.getByRole('button', { name: 'Deploy to v2' }).click();
    await tab.getByRole('dialog', { name: 'Deploy release' }).getByRole('button', { name: 'Deploy' }).click();
    await expectVisible(tab.getByLabel('Release v2').getByText('current'));
    expect(await served(servedTab, staging.url)).toEqual({ status: 200, text: 'Version two' });
    await context.close();
  });

  it('protects a branch with a password the browser asks for, then removes it', async () => {
    const { owner } = stage.world.clients;
    const branch = expectStatus(await owner.post(`/api/v1/sites/${siteId}/branches`, { name: 'private' }), 200);
    await uploadRelease(owner, siteId, 'private build', ['private'], page('Secret preview'));
    const { context, page: tab } = await visit(stage, { user: 'teammate', orgId: stage.world.org._id });
    await tab.goto(`/sites/${siteId}/branches/${branch._id}/settings`);
    await tab.getByRole('switch', { name: 'Password protection' }).click({ force: true });
    const modal = tab.getByRole('dialog', { name: 'Set password' });
    const suggestion = await modal.getByLabel('Password').inputValue();
    expect(suggestion).toMatch(/^[A-Za-z0-9]{16}$/);
    await modal.getByLabel('Password').fill('');
    await modal.getByRole('button', { name: 'Set password' }).click();
    await expect.poll(() => fieldError(modal, 'Password').textContent()).toBe('Input is required');
    await modal.getByRole('button', { name: 'Suggest another' }).click();
    const password = await modal.getByLabel('Password').inputValue();
    expect(password).toMatch(/^[A-Za-z0-9]{16}$/);
    await snap(tab, 'branch-password');
    await modal.getByRole('button', { name: 'Set password' }).click();
    await expectHidden(modal);
    await expectVisible(tab.getByText('password', { exact: true }));

    // Headless Chromium has nobody to ask: it gives up on the challenge, whose answer is still seen.
    const visitor = await context.newPage();
    const challenge = visitor.waitForResponse((response) => response.url() === branch.url);
    await visitor.goto(branch.url).catch(() => undefined);
    const refused = await challenge;
    expect(refused.status()).toBe(401);
    expect(await refused.headerValue('www-authenticate')).toMatch(/^Basic /);
    const withPassword = await stage.browser.newContext({ httpCredentials: { username: 'user', password } });
    expect(await served(await withPassword.newPage(), branch.url)).toEqual({ status: 200, text: 'Secret preview' });
    await withPassword.close();

    await tab.getByRole('switch', { name: 'Password protection' }).click({ force: true });
    await expectHidden(tab.getByText('password', { exact: true }));
    expect(await served(visitor, branch.url)).toEqual({ status: 200, text: 'Secret preview' });
    await context.close();
  });

  it('edits redirects with every validation message, and the branch serves them', async () => {
    const branch = expectStatus(await stage.world.clients.owner.get(`/api/v1/sites/${siteId}`), 200);
    const { context, page: tab } = await visit(stage, { user: 'teammate', orgId: stage.world.org._id });
    await tab.goto(`/sites/${siteId}/branches/${branch.mainBranch}/redirects`);
    await expectVisible(tab.getByText('No redirects'));
    const save = tab.getByRole('button', { name: 'Save' });
    await expect.poll(() => save.isDisabled()).toBe(true);
    await tab.getByRole('button', { name: 'Add redirect' }).click();
    await tab.getByRole('button', { name: 'Add redirect' }).click();
    const first = tab.getByRole('group', { name: 'Redirect 1' });
    const second = tab.getByRole('group', { name: 'Redirect 2' });
    await save.click();
    await expect.poll(() => fieldError(first, 'Path').textContent()).toBe('Input is required');
    await first.getByRole('textbox', { name: /^Path/ }).fill('robots.txt');
    await save.click();
    await expect.poll(() => fieldError(first, 'Path').textContent()).toBe("Must start with '/'");
    await first.getByRole('textbox', { name: /^Path/ }).fill('/robots.txt');
    await first.getByLabel('Content').fill('User-agent: *');
    await second.getByText('Reverse proxy').click();
    await second.getByRole('textbox', { name: /^Path/ }).fill('/robots.txt');
    await save.click();
    await expect.poll(() => fieldError(second, 'Path').textContent()).toBe('Branch name must be unique');
    await expect.poll(() => fieldError(second, 'URL').textContent()).toBe('Input is required');
    await second.getByRole('textbox', { name: /^Path/ }).fill('/api');
    await second.getByLabel('URL').fill('not a url');
    await save.click();
    await expect.poll(() => fieldError(second, 'URL').textContent()).toBe('Must be an http(s) URL');
    await second.getByLabel('URL').fill(`${stage.server.url}/api/v1/system`);
    await second.getByLabel('Strip path prefix').fill('/api');
    await snap(tab, 'branch-redirects');
    await save.click();
    await expectVisible(toast(tab, 'Saved branch redirects'));
    await expect.poll(() => save.isDisabled()).toBe(true);

    const site = expectStatus(await stage.world.clients.owner.get(`/api/v1/sites/${siteId}`), 200);
    const visitor = await context.newPage();
    expect(await served(visitor, new URL('/robots.txt', site.url).href)).toEqual({
      status: 200,
      text: 'User-agent: *',
    });
    await context.close();
  });

  it('edits branch headers with their validation, the site headers listed below', async () => {
    const { owner } = stage.world.clients;
    expectStatus(
      await owner.put(`/api/v1/sites/${siteId}/headers`, { headers: [{ name: 'X-Site', value: 'from site' }] }),
      200,
    );
    const site = expectStatus(await owner.get(`/api/v1/sites/${siteId}`), 200);
    const { context, page: tab } = await visit(stage, { user: 'teammate', orgId: stage.world.org._id });
    await tab.goto(`/sites/${siteId}/branches/${site.mainBranch}/headers`);
    const siteHeaders = tab.getByRole('table', { name: 'Site headers' });
    await expectVisible(siteHeaders.getByText('X-Site'));
    const save = tab.getByRole('button', { name: 'Save' });
    await tab.getByRole('button', { name: 'Add header' }).click();
    await tab.getByRole('button', { name: 'Add header' }).click();
    const first = tab.getByRole('group', { name: 'Header 1' });
    const second = tab.getByRole('group', { name: 'Header 2' });
    await save.click();
    await expect.poll(() => fieldError(first, 'Name').textContent()).toBe('Input is required');
    await first.getByLabel('Name').fill('X-Frame-Options');
    await first.getByLabel('Value').fill('DENY');
    await second.getByLabel('Name').fill('x-frame-options');
    await second.getByLabel('Value').fill('v'.repeat(1001));
    await save.click();
    await expect.poll(() => fieldError(second, 'Name').textContent()).toBe('Header name must be unique');
    await expect.poll(() => fieldError(second, 'Value').textContent()).toBe('Max length is 1000');
    await second.getByLabel('Name').fill('X-Site');
    await second.getByLabel('Value').fill('from branch');
    await snap(tab, 'branch-headers');
    await save.click();
    await expectVisible(toast(tab, 'Saved branch headers'));
    await expect.poll(() => save.isDisabled()).toBe(true);
    const answer = await (await context.newPage()).goto(site.url);
    expect(await answer?.headerValue('x-frame-options')).toBe('DENY');
    expect(await answer?.headerValue('x-site')).toBe('from branch');
    await context.close();
  });

  it('edits the forms of the site with their validation, and a deploy keeps them and adds those its HTML marks', async () => {
    const site = expectStatus(await stage.world.clients.owner.get(`/api/v1/sites/${siteId}`), 200);
    const { context, page: tab } = await visit(stage, { user: 'teammate', orgId: stage.world.org._id });
    await tab.goto(`/sites/${siteId}/branches/${site.mainBranch}/forms`);
    await expectVisible(tab.getByText('No forms'));
    const save = tab.getByRole('button', { name: 'Save' });
    const discard = tab.getByRole('button', { name: 'Discard' });
    await tab.getByRole('button', { name: 'Add form' }).click();
    await tab.getByRole('button', { name: 'Add form' }).click();
    await tab.getByRole('button', { name: 'Add form' }).click();
    await tab.getByRole('button', { name: 'Remove form 3' }).click();
    const first = tab.getByRole('group', { name: 'Form 1' });
    const second = tab.getByRole('group', { name: 'Form 2' });
    await save.click();
    await expect.poll(() => fieldError(first, 'Name').textContent()).toBe('Input is required');
    await first.getByLabel('Name').fill('contact-us');
    await second.getByLabel('Name').fill('Contact_Us');
    await save.click();
    await expect.poll(() => fieldError(first, 'Name').textContent()).toBe('Must match ^[A-Za-z_]+$');
    await first.getByLabel('Name').fill('contact_us');
    await save.click();
    await expect.poll(() => fieldError(second, 'Name').textContent()).toBe('Form name must be unique');
    await second.getByLabel('Name').fill('newsletter');
    await second.getByRole('textbox', { name: 'Type' }).click();
    await tab.getByRole('option', { name: 'Mailed (email)' }).click();
    await expectVisible(tab.getByRole('alert').filter({ hasText: 'Mail is off on this server' }));
    await save.click();
    await expect.poll(() => fieldError(second, 'Recipient').textContent()).toBe('Input is required');
    await second.getByLabel('Recipient').fill('nobody');
    await save.click();
    await expect.poll(() => fieldError(second, 'Recipient').textContent()).toBe('Invalid email');
    await second.getByLabel('Recipient').fill('news@example.com');
    await snap(tab, 'branch-forms');
    await save.click();
    await expectVisible(toast(tab, 'Saved forms'));
    await expect.poll(() => save.isDisabled()).toBe(true);
    await expect.poll(() => discard.isDisabled()).toBe(true);
    const release = expectStatus(
      await stage.world.clients.owner.get(`/api/v1/sites/${siteId}/branches/${site.mainBranch}`),
      200,
    ).currentRelease;
    expect(release.forms).toEqual([
      { type: 'db', name: 'contact_us' },
      { type: 'email', name: 'newsletter', recipient: 'news@example.com' },
    ]);
    await tab.getByRole('button', { name: 'Remove form 1' }).click();
    await discard.click();
    await expectVisible(tab.getByRole('group', { name: 'Form 2' }));
    // The next deploy keeps them, and adds the form its page marks for Netlify.
    const marked = '<form name="quote" data-netlify="true" netlify-honeypot="bot-field"></form>';
    await uploadRelease(
      stage.world.clients.owner,
      siteId,
      'v-forms',
      ['main'],
      [{ name: 'index.html', content: marked }],
    );
    await tab.reload();
    await expect.poll(() => tab.getByRole('group', { name: /^Form \d$/ }).count()).toBe(3);
    await expect
      .poll(() => tab.getByRole('group', { name: 'Form 1' }).getByLabel('Name').inputValue())
      .toBe('contact_us');
    const detected = tab.getByRole('group', { name: 'Form 3' });
    await expect.poll(() => detected.getByLabel('Name').inputValue()).toBe('quote');
    await expectVisible(detected.getByText('detected'));
    await snap(tab, 'branch-forms-detected');
    await context.close();
  });

  it('renames a branch, then deletes it and returns to the list', async () => {
    const branch = expectStatus(
      await stage.world.clients.owner.post(`/api/v1/sites/${siteId}/branches`, { name: 'old-name' }),
      200,
    );
    const { context, page: tab } = await visit(stage, { user: 'teammate', orgId: stage.world.org._id });
    await tab.goto(`/sites/${siteId}/branches/${branch._id}`);
    await expectPath(tab, `/sites/${siteId}/branches/${branch._id}/releases`);
    await tab.getByRole('button', { name: 'Branch actions' }).click();
    await tab.getByRole('menuitem', { name: 'Rename' }).click();
    const rename = tab.getByRole('dialog', { name: 'Rename branch' });
    await rename.getByLabel('Name').fill('staging');
    await expectVisible(fieldError(rename, 'Name').filter({ hasText: 'Branch name is taken' }));
    await rename.getByLabel('Name').fill('preview');
    await rename.getByRole('button', { name: 'Rename' }).click();
    await expectVisible(tab.getByRole('heading', { name: 'preview' }));
    await expectVisible(tab.getByRole('link', { name: 'Branch link' }).filter({ hasText: 'preview.' }));
    await tab.getByRole('button', { name: 'Branch actions' }).click();
    await tab.getByRole('menuitem', { name: 'Delete' }).click();
    await tab.getByRole('dialog', { name: 'Delete branch' }).getByRole('button', { name: 'Delete branch' }).click();
    await expectPath(tab, `/sites/${siteId}/branches`);
    await expectHidden(tab.getByLabel('Branch preview'));
    await snap(tab, 'site-branches');
    await context.close();
  });
});
