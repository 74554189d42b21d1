import { type CodeHostPeer, freePort, startGiteaPeer, startGithubPeer, startGitlabPeer } from '@wharf/server/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeInBrowser } from '../support/browser.ts';
import { expectHidden, expectPath, expectVisible, openStage, type Stage, snap, visit } from '../support/journey.ts';

const CLIENT = { clientId: 'wharf-console', clientSecret: 'console-secret' };

describeInBrowser('sign-in through GitHub, GitLab and Gitea (loopback peers), and connected accounts', () => {
  let stage: Stage;
  const peers: Record<'github' | 'gitlab' | 'gitea', CodeHostPeer> = {} as never;

  beforeAll(async () => {
    const port = await freePort();
    const redirectUri = (kind: string) => `http://127.0.0.1:${port}/auth/${kind}/callback`;
    peers.github = await startGithubPeer({ ...CLIENT, redirectUri: redirectUri('github'), autoApprove: false });
    peers.gitlab = await startGitlabPeer({ ...CLIENT, redirectUri: redirectUri('gitlab') });
    peers.gitea = await startGiteaPeer({ ...CLIENT, redirectUri: redirectUri('gitea') });
    const env: Record<string, string> = { WHARF_GITHUB_ORGS: 'acme' };
    for (const [kind, peer] of Object.entries(peers)) {
      const prefix = `WHARF_${kind.toUpperCase()}`;
      Object.assign(env, {
        [`${prefix}_CLIENT_ID`]: CLIENT.clientId,
        [`${prefix}_CLIENT_SECRET`]: CLIENT.clientSecret,
        [`${prefix}_URL`]: peer.url,
      });
      peer.addUser({ id: 500, login: 'octo', name: 'Octo Cat', email: `octo@${kind}.test`, orgs: ['acme'] });
      peer.addUser({ id: 501, login: 'stranger', name: 'Stranger', email: null, orgs: ['elsewhere'] });
      peer.signInAs('octo');
    }
    stage = await openStage(env, { port });
  });
  afterAll(async () => {
    await stage?.close();
    await Promise.all(Object.values(peers).map((peer) => peer?.close()));
  });

  it('shows a button for each provider, and signs in through GitHub’s own authorization page', async () => {
    const { context, page } = await visit(stage);
    await page.goto('/login');
    for (const name of ['Sign in with GitHub', 'Sign in with GitLab', 'Sign in with Gitea'])
      await expectVisible(page.getByRole('link', { name }));
    await snap(page, 'login-code-hosts');
    await page.getByRole('link', { name: 'Sign in with GitHub' }).click();
    await expectVisible(page.getByRole('heading', { name: 'Authorize Wharf' }));
    await page.getByRole('button', { name: 'Authorize' }).click();
    await expectPath(page, '/orgs');
    await expectVisible(page.getByRole('button', { name: /User menu of Octo Cat/ }));
    await context.close();
  });

  it('refuses a GitHub account outside the allowed organization, and says why', async () => {
    const { context, page } = await visit(stage);
    peers.github.signInAs('stranger');
    await page.goto('/login');
    await page.getByRole('link', { name: 'Sign in with GitHub' }).click();
    await page.getByRole('button', { name: 'Authorize' }).click();
    await expectPath(page, '/login');
    await expectVisible(
      page
        .getByRole('main')
        .getByRole('alert')
        .getByText(/Your GitHub account is not allowed/),
    );
    peers.github.signInAs('octo');
    await context.close();
  });

  it('connects GitLab and Gitea to a password user on /user/security, and disconnects one', async () => {
    const { context, page } = await visit(stage, { user: 'member' });
    await page.goto('/user/security');
    await expectVisible(page.getByRole('heading', { name: 'Connected accounts' }));
    await page.getByRole('button', { name: 'Connect GitLab' }).click();
    await expectVisible(page.getByRole('status').getByText('Your GitLab account is now connected.'));
    await page.getByRole('button', { name: 'Connect Gitea' }).click();
    await expectVisible(page.getByLabel('Gitea account octo'));
    await snap(page, 'connected-accounts');

    const gitlab = page.getByLabel('GitLab account octo');
    await gitlab.getByRole('button', { name: 'Disconnect' }).click();
    await expectHidden(gitlab);
    await expectVisible(page.getByLabel('Password account member'));

    // The Gitea account now signs the same user in.
    const other = await visit(stage);
    await other.page.goto('/login');
    await other.page.getByRole('link', { name: 'Sign in with Gitea' }).click();
    // Signed in as the member, on / or on /orgs (which one depends on the organization remembered).
    await expectVisible(other.page.getByRole('button', { name: /User menu of member/ }));
    await other.context.close();
    expect(await page.getByLabel(/account/).count()).toBeGreaterThanOrEqual(2);
    await context.close();
  });

  it('refuses to connect an account that is already another user’s', async () => {
    const { context, page } = await visit(stage, { user: 'outsider' });
    await page.goto('/user/security');
    await page.getByRole('button', { name: 'Connect Gitea' }).click();
    await expectVisible(
      page.getByRole('alert').getByText('That Gitea account is already connected to another Wharf user.'),
    );
    await context.close();
  });

  it('lists a GitHub account’s repositories on a site’s settings, connects one and adds its deploy key and webhook there', async () => {
    peers.github.addUser({
      id: 502,
      login: 'builder',
      name: 'Builder',
      email: 'builder@github.test',
      orgs: ['acme'],
      repositories: [
        { fullName: 'acme/shop', private: true, admin: true, defaultBranch: 'trunk' },
        { fullName: 'acme/docs', admin: false },
      ],
    });
    peers.github.signInAs('builder');
    const { site, org } = stage.world;
    const { context, page } = await visit(stage, { user: 'owner', orgId: org._id });
    await page.goto(`/sites/${site._id}/settings/repository`);
    await page.getByRole('button', { name: 'List my GitHub repositories' }).click();
    await page.getByRole('button', { name: 'Authorize' }).click();
    await expectVisible(page.getByRole('status').getByText(/Wharf may now list your GitHub repositories/));
    await page.getByRole('textbox', { name: 'GitHub repository' }).click();
    await page.getByRole('textbox', { name: 'GitHub repository' }).fill('shop');
    await page.getByRole('option', { name: 'acme/shop (private)' }).click();
    await expect
      .poll(() => page.getByRole('textbox', { name: 'Repository URL' }).inputValue())
      .toBe('git@127.0.0.1:acme/shop.git');
    await expect.poll(() => page.getByRole('textbox', { name: 'Production branch' }).inputValue()).toBe('trunk');
    await snap(page, 'repository-from-account');
    await page.getByRole('button', { name: 'Save' }).click();
    await expectVisible(page.getByText(/Deploy key and webhook added to acme\/shop/));
    expect(peers.github.setUps.map((setUp) => setUp.kind)).toEqual(['key', 'hook']);
    await expectVisible(page.getByRole('heading', { name: 'Set up at the code host' }));
    await snap(page, 'repository-set-up-at-forge');
    peers.github.signInAs('octo');
    await context.close();
  });

  it('shows the organization’s admins which account accepted an invitation', async () => {
    const { owner } = stage.world.clients;
    const { org } = stage.world;
    const invite = await owner.post(`/api/v1/orgs/${org._id}/invites`, { email: 'octo.work@acme.test' });
    expect(invite.status).toBe(200);
    peers.gitlab.addUser({ id: 777, login: 'newcomer', name: 'New Comer', email: 'new@gitlab.test', orgs: [] });
    peers.gitlab.signInAs('newcomer');
    const invitee = await visit(stage);
    await invitee.page.goto('/login');
    await invitee.page.getByRole('link', { name: 'Sign in with GitLab' }).click();
    await expectPath(invitee.page, '/orgs');
    await invitee.page.goto(new URL(invite.body.url).pathname + new URL(invite.body.url).search);
    await invitee.page.getByRole('button', { name: 'Accept' }).click();
    await expectPath(invitee.page, '/');
    await invitee.context.close();

    const { context, page } = await visit(stage, { user: 'owner', orgId: org._id });
    await page.goto('/org/staff');
    const row = page.getByLabel('Member New Comer');
    await expectVisible(
      row.getByText('Invited as octo.work@acme.test · accepted with GitLab (newcomer, new@gitlab.test)'),
    );
    await snap(page, 'members-invitation');
    await context.close();
  });
});
