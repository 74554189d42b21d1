import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expectStatus, freePort, tarGz, uploadForm, uploadRelease } from '@wharf/server/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeInBrowser } from '../support/browser.ts';
import {
  expectHidden,
  expectPath,
  expectVisible,
  failureToast,
  fieldError,
  openStage,
  type Stage,
  snap,
  toast,
  visit,
} from '../support/journey.ts';

const execFileAsync = promisify(execFile);

describeInBrowser('site page (/sites/{siteId}): releases, tokens, headers, password, traffic', () => {
  let stage: Stage;
  beforeAll(async () => {
    stage = await openStage();
  });
  afterAll(async () => {
    await stage?.close();
  });

  async function newSite(prefix: string) {
    const { owner } = stage.world.clients;
    const site = expectStatus(
      await owner.post(`/api/v1/teams/${stage.world.team._id}/sites`, { name: stage.world.unique(prefix) }),
      200,
    );
    return site as { _id: string; name: string; url: string; mainBranch: string };
  }

  it('shows the upload command, and a release uploaded meanwhile appears without a reload', async () => {
    const site = await newSite('blog');
    const { context, page } = await visit(stage, { user: 'teammate', orgId: stage.world.org._id });
    await page.goto(`/sites/${site._id}`);
    await expectVisible(page.getByLabel('Traffic').getByText(/No traffic yet/));
    await page.getByRole('tab', { name: 'Releases' }).click();
    await expectVisible(page.getByText('No releases'));
    await snap(page, 'site-releases-empty');
    await page.getByRole('button', { name: 'How to upload' }).first().click();
    const modal = page.getByRole('dialog', { name: 'How to upload' });
    const command = (await modal.getByLabel('Upload command', { exact: true }).textContent()) ?? '';
    expect(command).toBe(
      `npx --yes ${stage.server.url}/cli/wharf-cli.tgz upload ./dist --url ${stage.server.url} --site ${site._id} --token <token>`,
    );
    expect(await modal.getByLabel('Upload command without npx', { exact: true }).textContent()).toBe(
      `curl -fsSLO ${stage.server.url}/cli/wharf.mjs && node wharf.mjs upload ./dist --url ${stage.server.url} --site ${site._id} --token <token>`,
    );
    await snap(page, 'site-how-to-upload');
    await modal.getByRole('link', { name: 'create one in the Tokens tab' }).click();
    await expectPath(page, `/sites/${site._id}/tokens`);
    await page.getByRole('tab', { name: 'Releases' }).click();
    await expectVisible(page.getByText('No releases'));

    // The command as shown, run with the real CLI: a built folder and a site token in place of the placeholders.
    const token = expectStatus(
      await stage.world.clients.owner.post(`/api/v1/sites/${site._id}/tokens`, { name: 'CI' }),
      200,
    ).value;
    // npx fetches the CLI from this Wharf: an empty npm cache and a registry nobody answers on.
    const job = await mkdtemp(path.join(os.tmpdir(), 'wharf-e2e-job-'));
    await mkdir(path.join(job, 'dist'));
    await writeFile(path.join(job, 'dist', 'index.html'), '<!doctype html><h1>Uploaded by the CLI</h1>');
    await execFileAsync('/bin/sh', ['-c', `${command.replace('<token>', token)} --release first --branch main`], {
      cwd: job,
      env: {
        PATH: [path.dirname(process.execPath), '/usr/bin', '/bin'].join(':'),
        HOME: job,
        npm_config_cache: path.join(job, 'npm-cache'),
        npm_config_registry: `http://127.0.0.1:${await freePort()}/`,
        npm_config_fetch_retries: '0',
      },
    });
    await rm(job, { recursive: true, force: true });
    await expectVisible(page.getByLabel('Release first'));
    const visitor = await context.newPage();
    await visitor.goto(site.url);
    await expect.poll(() => visitor.locator('h1').textContent()).toBe('Uploaded by the CLI');
    await visitor.close();
    await expectVisible(page.getByLabel('Release first').getByText('main', { exact: true }));
    await uploadRelease(stage.world.clients.owner, site._id, 'second', ['main']);
    await expectVisible(page.getByLabel('Release second').getByText('main', { exact: true }));
    const rows = page.getByLabel(/^Release /);
    await expect.poll(() => rows.first().getAttribute('aria-label')).toBe('Release second');

    // While a search is active, new releases are not slipped in.
    await page.getByLabel('Search releases').fill('se');
    await expectVisible(page.getByText('Search needs at least 3 characters'));
    await page.getByLabel('Search releases').fill('sec');
    await expectHidden(page.getByLabel('Release first'));
    // The page handles the release's event, then fetches the site again: once that request goes out,
    // the event has had every effect it will have on the list.
    const eventHandled = page.waitForRequest(
      (request) => request.method() === 'GET' && new URL(request.url()).pathname === `/api/v1/sites/${site._id}`,
    );
    await uploadRelease(stage.world.clients.owner, site._id, 'third', []);
    await (await eventHandled).response();
    expect(await page.getByLabel('Release third').count()).toBe(0);
    await page.getByLabel('Search releases').fill('nothing-like-it');
    await expectVisible(page.getByText('No results'));
    await page.getByLabel('Search releases').fill('');
    await expectVisible(page.getByLabel('Release third'));
    await snap(page, 'site-releases');
    await context.close();
  });

  it('renames a release and deletes one no branch serves', async () => {
    const site = await newSite('docs');
    const { owner } = stage.world.clients;
    // An upload points the main branch at itself: the first release is then served by no branch.
    await uploadRelease(owner, site._id, 'spare', ['main']);
    await uploadRelease(owner, site._id, 'served', ['main']);
    const { context, page } = await visit(stage, { user: 'teammate', orgId: stage.world.org._id });
    await page.goto(`/sites/${site._id}/releases`);
    await page.getByRole('button', { name: 'Actions of spare' }).click();
    await page.getByRole('menuitem', { name: 'Rename' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename release' });
    const save = rename.getByRole('button', { name: 'Save' });
    await expect.poll(() => save.isDisabled()).toBe(true);
    await rename.getByLabel('Name').fill('');
    await save.click();
    await expect.poll(() => fieldError(rename, 'Name').textContent()).toBe('Input is required');
    await rename.getByLabel('Name').fill('spare parts');
    await save.click();
    await expectVisible(page.getByLabel('Release spare parts'));

    await page.getByRole('button', { name: 'Actions of served' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete release' }).getByRole('button', { name: 'Delete release' }).click();
    await expectVisible(failureToast(page, 'delete releases', /The release is served by main/));
    await page.getByRole('dialog', { name: 'Delete release' }).getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('button', { name: 'Actions of spare parts' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete release' }).getByRole('button', { name: 'Delete release' }).click();
    await expectHidden(page.getByLabel('Release spare parts'));
    await context.close();
  });

  it('adds tokens, newest first, copies one and deletes one after confirmation', async () => {
    const site = await newSite('tokens');
    const { context, page } = await visit(stage, { user: 'teammate', orgId: stage.world.org._id });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto(`/sites/${site._id}/tokens`);
    await expectVisible(page.getByText('No tokens'));
    await page.getByRole('button', { name: 'Add token' }).click();
    const modal = page.getByRole('dialog', { name: 'Add token' });
    await modal.getByRole('button', { name: 'Create token' }).click();
    await expect.poll(() => fieldError(modal, 'Name').textContent()).toBe('Input is required');
    await modal.getByLabel('Name').fill('x'.repeat(1001));
    await modal.getByRole('button', { name: 'Create token' }).click();
    await expect.poll(() => fieldError(modal, 'Name').textContent()).toBe('Max length is 1000');
    await modal.getByLabel('Name').fill('CI');
    await modal.getByRole('button', { name: 'Create token' }).click();
    const created = page.getByRole('dialog', { name: 'Token created' });
    const value = (await created.getByLabel('Value of CI', { exact: true }).textContent()) ?? '';
    expect(value.length).toBeGreaterThan(20);
    expect(await created.getByLabel('Upload command', { exact: true }).textContent()).toBe(
      `npx --yes ${stage.server.url}/cli/wharf-cli.tgz upload ./dist --url ${stage.server.url} --site ${site._id} --token ${value}`,
    );
    await created.getByRole('button', { name: 'Copy the upload command' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toContain(`--token ${value}`);
    await snap(page, 'site-token-created');
    await created.getByRole('button', { name: 'Done' }).click();

    await page.getByRole('button', { name: 'Add token' }).click();
    await modal.getByLabel('Name').fill('Laptop');
    await modal.getByRole('button', { name: 'Create token' }).click();
    await page.getByRole('dialog', { name: 'Token created' }).getByRole('button', { name: 'Done' }).click();
    await expectVisible(page.getByLabel('Token CI'));
    const rows = page.getByLabel(/^Token /);
    await expect.poll(() => rows.first().getAttribute('aria-label')).toBe('Token Laptop');

    await page.getByRole('button', { name: 'Copy value of CI' }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(value);
    await snap(page, 'site-tokens');

    // The token uploads to its site.
    const upload = await fetch(`${stage.server.url}/api/v1/sites/${site._id}/releases`, {
      method: 'POST',
      headers: { authorization: `Bearer ${value}` },
      body: uploadForm(await tarGz([{ name: 'index.html', content: 'hi' }]), 'by token', ['main']),
    });
    expect(upload.status).toBe(200);

    await page.getByRole('button', { name: 'Delete CI' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete token' });
    await confirm.getByRole('button', { name: 'Delete token' }).click();
    await expectHidden(page.getByLabel('Token CI'));
    await context.close();
  });

  it('edits the site headers from their table, and protects the site with a password', async () => {
    const site = await newSite('secure');
    await uploadRelease(stage.world.clients.owner, site._id, 'v1', ['main']);
    const { context, page } = await visit(stage, { user: 'teammate', orgId: stage.world.org._id });
    await page.goto(`/sites/${site._id}/settings/headers`);
    await expectVisible(page.getByText('No headers'));
    await page.getByRole('link', { name: 'Edit' }).click();
    await expectPath(page, `/sites/${site._id}/settings/headers/edit`);
    await page.getByRole('button', { name: 'Add header' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => fieldError(page, 'Name').textContent()).toBe('Input is required');
    await page.getByLabel('Name').fill('Bad Name');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => fieldError(page, 'Name').textContent()).toBe("Must match ^[!#$%&'*+.^_`|~0-9A-Za-z-]+$");
    await page.getByLabel('Name').fill('Cache-Control');
    await page.getByLabel('Value').fill('no-store');
    await page.getByRole('button', { name: 'Save' }).click();
    await expectVisible(toast(page, 'Site saved'));
    await expectPath(page, `/sites/${site._id}/settings/headers`);
    await expectVisible(page.getByRole('table', { name: 'Site headers' }).getByText('no-store'));
    await snap(page, 'site-settings-headers');

    await page.getByRole('tab', { name: 'Security' }).click();
    await page.getByRole('switch', { name: 'Password protection' }).click({ force: true });
    const modal = page.getByRole('dialog', { name: 'Set password' });
    await expect.poll(() => modal.getByLabel('Password').inputValue()).toMatch(/^[A-Za-z0-9]{16}$/);
    await modal.getByRole('button', { name: 'Set password' }).click();
    await expectHidden(modal);
    await snap(page, 'site-settings-security');
    const visitor = await context.newPage();
    const challenge = visitor.waitForResponse((response) => response.url() === site.url);
    await visitor.goto(site.url).catch(() => undefined);
    expect((await challenge).status()).toBe(401);
    await page.getByRole('switch', { name: 'Password protection' }).click({ force: true });
    await expectHidden(page.getByRole('heading').getByText('password', { exact: true }));
    expect((await visitor.goto(site.url))?.status()).toBe(200);
    expect(await (await visitor.goto(site.url))?.headerValue('cache-control')).toBe('no-store');
    await context.close();
  });

  it('draws the traffic of the site once it has been visited', async () => {
    const site = await newSite('busy');
    await uploadRelease(stage.world.clients.owner, site._id, 'v1', ['main']);
    const { context, page } = await visit(stage, { user: 'member', orgId: stage.world.org._id });
    const visitor = await context.newPage();
    for (let index = 0; index < 3; index++) await visitor.goto(site.url);
    await page.goto(`/sites/${site._id}`);
    const traffic = page.getByLabel('Traffic');
    await expectVisible(traffic.getByText('requests'));
    await expectVisible(traffic.locator('.recharts-area-area'));
    // A member outside the team sees the lists, not what only the team manages.
    expect(await page.getByRole('tab', { name: 'Tokens' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Add branch' }).count()).toBe(0);
    await snap(page, 'site-traffic');
    await context.close();
  });

  it('deletes the site from the danger zone after confirmation', async () => {
    const site = await newSite('doomed');
    const { context, page } = await visit(stage, { user: 'admin', orgId: stage.world.org._id });
    await page.goto(`/sites/${site._id}/settings`);
    await expectVisible(page.getByRole('heading', { name: 'Danger zone' }));
    await page.getByRole('main').getByRole('button', { name: 'Delete site' }).last().click();
    await page.getByRole('dialog', { name: 'Delete site' }).getByRole('button', { name: 'Delete site' }).click();
    await expectPath(page, `/teams/${stage.world.team._id}/sites`);
    expectStatus(await stage.world.clients.owner.get(`/api/v1/sites/${site._id}`), 404);
    await context.close();
  });
});
