import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startWharf } from 'wharf/testing';
import { describeInBrowser } from '../support/browser.ts';
import { expectPath, expectVisible, openStage, type Stage, snap, visit } from '../support/journey.ts';

const PAGE = /http:\S+(\/cli-login\/(\w+))\n/;
const CODE = /shows the code ([B-Z]{4}-[B-Z]{4})/;

describeInBrowser('signing the wharf command in (/cli-login/{id})', () => {
  let stage: Stage;
  let configHome: string;
  beforeAll(async () => {
    stage = await openStage();
    configHome = await mkdtemp(path.join(os.tmpdir(), 'wharf-config-'));
  });
  afterAll(async () => {
    await stage?.close();
    await rm(configHome, { recursive: true, force: true });
  });

  /** `wharf login` run as a person would, its page and code read from the terminal. */
  async function startLogin() {
    const login = startWharf(['login', '--url', stage.server.url], { env: { XDG_CONFIG_HOME: configHome } });
    const [, pagePath, id] = await login.stderrMatch(PAGE);
    const [, code] = await login.stderrMatch(CODE);
    return { login, pagePath: pagePath!, id: id!, code: code! };
  }

  it('brings a signed-out person to the request after signing in, shows the code and approves it', async () => {
    const { login, pagePath, code } = await startLogin();
    const { context, page } = await visit(stage);
    await page.goto(pagePath);
    await expectPath(page, '/login');
    await page.getByLabel('User').fill('owner');
    await page.getByLabel('Password').fill('password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expectVisible(page.getByRole('heading', { name: 'Sign in from a terminal' }));
    await expect.poll(() => page.getByLabel('Confirmation code').textContent()).toBe(code);
    await expectVisible(page.getByText(`${os.userInfo().username}@${os.hostname()}`, { exact: true }));
    await expectVisible(page.getByText(/^Expires in \d+ minutes$/));
    await snap(page, 'cli-login');
    await page.getByRole('button', { name: 'Approve' }).click();
    await expectVisible(page.getByText(/^Approved: the terminal (has|gets) its token/));
    expect(await page.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    const run = await login.done;
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Logged in to ${stage.server.url} as owner.`);
    await context.close();
  });

  it('cancels a request: the terminal stops, with no token', async () => {
    const { login, pagePath } = await startLogin();
    const { context, page } = await visit(stage, { user: 'member' });
    await page.goto(pagePath);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expectVisible(page.getByText('Cancelled: the terminal was told, and got no token.'));
    const run = await login.done;
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('The sign-in was cancelled in the console');
    await context.close();
  });

  it('shows an expired request as expired, with Approve and Cancel disabled', async () => {
    const { login, pagePath, id } = await startLogin();
    await stage.server.app.db
      .updateTable('cli_logins')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', id)
      .execute();
    const { context, page } = await visit(stage, { user: 'owner' });
    await page.goto(pagePath);
    await expectVisible(page.getByText('expired', { exact: true }));
    await expect.poll(() => page.getByRole('button', { name: 'Approve' }).isDisabled()).toBe(true);
    await expect.poll(() => page.getByRole('button', { name: 'Cancel' }).isDisabled()).toBe(true);
    expect((await login.done).stderr).toContain('Nobody approved the sign-in in time');
    await context.close();
  });

  it('says so when the request is unknown', async () => {
    const { context, page } = await visit(stage, { user: 'owner' });
    await page.goto('/cli-login/unknown0000000000');
    await expectVisible(page.getByRole('alert').filter({ hasText: 'Could not open this sign-in request' }));
    await context.close();
  });
});
