import { type OidcPeer, oidcEnv, startOidcPeer, startTestServer } from '@wharf/server/testing';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { describeInBrowser, launchBrowser } from '../support/browser.ts';
import { expectPath, expectVisible, openStage, type Stage, snap, visit } from '../support/journey.ts';

describeInBrowser('sign-in through an OpenID Connect provider (a real one on loopback)', () => {
  let peer: OidcPeer;
  let stage: Stage;
  beforeAll(async () => {
    peer = await startOidcPeer();
    stage = await openStage(oidcEnv(peer, { WHARF_OIDC_ALLOWED_GROUPS: 'wharf-users' }));
  });
  afterAll(async () => {
    await stage?.close();
    await peer?.close();
  });
  beforeEach(() => {
    peer.signInAs({ sub: 'kc-ada', name: 'Ada Lovelace', email: 'ada@example.test', groups: ['wharf-users'] });
    peer.tamperIdToken(null);
  });

  it('shows the provider’s button by its name beside the password form', async () => {
    const { context, page } = await visit(stage);
    await page.goto('/login');
    const button = page.getByRole('link', { name: 'Sign in with Keycloak' });
    await expect.poll(() => button.getAttribute('href')).toBe('/auth/oidc');
    await expectVisible(page.getByLabel('User'));
    await snap(page, 'login-oidc');
    await context.close();
  });

  it('goes from /login through the provider to the organization list, signed in', async () => {
    const { context, page } = await visit(stage);
    await page.goto('/login');
    await page.getByRole('link', { name: 'Sign in with Keycloak' }).click();
    await expectPath(page, '/orgs');
    await expectVisible(page.getByRole('button', { name: /User menu of Ada Lovelace/ }));
    await snap(page, 'orgs-after-oidc');
    await page.goto('/user/security');
    const account = page.getByLabel(/^Keycloak account/);
    await expectVisible(account.getByText('This session'));
    await context.close();
  });

  it('says on /login why a sign-in was refused, and opens no session', async () => {
    const { context, page } = await visit(stage);
    peer.tamperIdToken((claims) => Object.assign(claims, { aud: 'another-client' }));
    await page.goto('/login');
    await page.getByRole('link', { name: 'Sign in with Keycloak' }).click();
    await expectPath(page, '/login');
    const refusal = page.getByRole('main').getByRole('alert');
    await expectVisible(refusal.getByText(/Keycloak did not confirm who you are/));
    await snap(page, 'login-oidc-refused');

    peer.tamperIdToken(null);
    peer.signInAs({ sub: 'kc-eve', name: 'Eve', groups: ['accounting'] });
    await page.getByRole('link', { name: 'Sign in with Keycloak' }).click();
    await expectVisible(
      page
        .getByRole('main')
        .getByRole('alert')
        .getByText(/not allowed to sign in here/),
    );
    await page.goto('/orgs');
    await expectPath(page, '/login');
    await context.close();
  });
});

describeInBrowser('an installation that signs in only through its provider', () => {
  let peer: OidcPeer;
  let stage: Pick<Stage, 'browser' | 'server'>;
  beforeAll(async () => {
    peer = await startOidcPeer();
    // No world of password users here: the password form is off.
    const env = oidcEnv(peer, { WHARF_PASSWORD_SIGN_IN: 'off', WHARF_OIDC_NAME: 'Authentik' });
    const [server, browser] = await Promise.all([
      startTestServer({ serveConsole: true, withoutUsers: true, env }),
      launchBrowser(),
    ]);
    stage = { server, browser };
  });
  afterAll(async () => {
    await stage?.browser.close();
    await stage?.server.close();
    await peer?.close();
  });

  it('shows the provider’s button and no password form, and signs in through it', async () => {
    const { context, page } = await visit(stage);
    await page.goto('/login');
    await expectVisible(page.getByRole('link', { name: 'Sign in with Authentik' }));
    expect(await page.getByLabel('User').count()).toBe(0);
    await page.getByRole('link', { name: 'Sign in with Authentik' }).click();
    await expectPath(page, '/orgs');
    await context.close();
  });
});
