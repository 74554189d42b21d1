import { expectStatus, signedIn, startTestServer, type TestServer } from '@wharf/server/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeInBrowser } from '../support/browser.ts';
import { expectPath, expectVisible, openStage, type Stage, snap, visit } from '../support/journey.ts';

describeInBrowser('invitations (/invite?token=…)', () => {
  let stage: Stage;
  beforeAll(async () => {
    stage = await openStage();
  });
  afterAll(() => stage?.close());

  async function invite(email: string, admin = false) {
    const owner = await signedIn(stage.server.url, 'owner');
    const created = expectStatus(
      await owner.post(`/api/v1/orgs/${stage.world.org._id}/invites`, { email, admin }),
      200,
    );
    return { ...created, link: new URL(created.url).pathname + new URL(created.url).search };
  }

  it('says when the address has no token', async () => {
    const { context, page } = await visit(stage, { user: 'joiner' });
    await page.goto('/invite');
    await expectVisible(page.getByRole('heading', { name: 'No token found' }));
    await expectVisible(page.getByText(/The address of an invitation contains a token/));
    await snap(page, 'invite-no-token');
    await context.close();
  });

  it('shows an unknown token as an inline error', async () => {
    const { context, page } = await visit(stage, { user: 'joiner' });
    await page.goto('/invite?token=not-a-real-token');
    await expectVisible(page.getByRole('alert').filter({ hasText: 'Could not open this invitation' }));
    await context.close();
  });

  it('declines an invitation', async () => {
    const { link } = await invite('joiner@example.com');
    const { context, page } = await visit(stage, { user: 'joiner' });
    await page.goto(link);
    await expectVisible(page.getByRole('heading', { name: "You're invited !" }));
    await page.getByRole('button', { name: 'Decline' }).click();
    await expectPath(page, '/orgs');
    await page.goto(link);
    await expectVisible(page.getByRole('alert').filter({ hasText: 'Could not open this invitation' }));
    await context.close();
  });

  it('brings a signed-out invitee back to the invitation, then accepts it and switches organization', async () => {
    const { link } = await invite('joiner@example.com', true);
    const { context, page } = await visit(stage);
    await page.goto(link);
    await expectPath(page, '/login');
    await page.getByLabel('User').fill('joiner');
    await page.getByLabel('Password').fill('password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expectVisible(page.getByRole('heading', { name: "You're invited !" }));
    await expectVisible(page.getByText('Acme', { exact: true }));
    await expectVisible(page.getByText(/You will be an admin of this workspace/));
    await expectVisible(page.getByText('pending invitation'));
    await expectVisible(page.getByText('Expires in 7 days'));
    await snap(page, 'invite');
    await page.getByRole('button', { name: 'Accept' }).click();
    await expectPath(page, '/');
    await expectVisible(page.getByRole('heading', { name: 'Teams' }));
    await expectVisible(page.getByRole('banner').getByText('Acme'));
    await expect.poll(() => page.evaluate(() => localStorage.getItem('wharf.currentOrg'))).toBe(stage.world.org._id);
    await context.close();
  });

  it('tells a member that there is nothing to accept, and opens the organization instead', async () => {
    const { link } = await invite('member@example.com', true);
    const { context, page } = await visit(stage, { user: 'member' });
    await page.goto(link);
    await expectVisible(page.getByText('You are already a member of Acme: there is nothing to accept.'));
    expect(await page.getByRole('button', { name: 'Accept' }).count()).toBe(0);
    expect(await page.getByText(/You will be an admin/).count()).toBe(0);
    await snap(page, 'invite-already-member');
    await page.getByRole('button', { name: 'Open Acme' }).click();
    await expectPath(page, '/');
    await expectVisible(page.getByRole('banner').getByText('Acme'));
    await context.close();
  });

  it('shows a failed acceptance inline', async () => {
    const { link, _id } = await invite('outsider@example.com');
    const { context, page } = await visit(stage, { user: 'outsider' });
    await page.goto(link);
    await expectVisible(page.getByRole('button', { name: 'Accept' }));
    expectStatus(await stage.world.clients.owner.delete(`/api/v1/orgs/${stage.world.org._id}/invites/${_id}`), 204);
    await page.getByRole('button', { name: 'Accept' }).click();
    await expectVisible(page.getByRole('alert').filter({ hasText: /^Could not delete invite: / }));
    await snap(page, 'invite-failed');
    await expectPath(page, '/invite');
    await context.close();
  });

  describeInBrowser('an expired invitation', () => {
    let shortLived: TestServer;
    beforeAll(async () => {
      // Invitations of this server expire after about a second.
      shortLived = await startTestServer({ serveConsole: true, env: { WHARF_INVITE_TTL_DAYS: '0.00001' } });
    });
    afterAll(() => shortLived?.close());

    it("shows 'expired' in red and disables Accept and Decline", async () => {
      const owner = await signedIn(shortLived.url, 'owner');
      const org = expectStatus(await owner.post('/api/v1/orgs', { name: 'Short Lived' }), 200);
      const created = expectStatus(
        await owner.post(`/api/v1/orgs/${org._id}/invites`, { email: 'late@example.com', admin: false }),
        200,
      );
      // The invitation lives about a second: wait until this machine's clock has passed its expiry.
      await expect.poll(() => Date.now(), { timeout: 5_000 }).toBeGreaterThan(Date.parse(created.expiresAt));
      const { context, page } = await visit({ browser: stage.browser, server: shortLived }, { user: 'joiner' });
      await page.goto(new URL(created.url).pathname + new URL(created.url).search);
      const expired = page.getByText('expired', { exact: true });
      await expectVisible(expired);
      await expect
        .poll(() => expired.evaluate((element) => getComputedStyle(element).color))
        .toMatch(/rgb\(2[0-9]{2}, [0-9]{1,2}, [0-9]{1,2}\)/);
      await expect.poll(() => page.getByRole('button', { name: 'Accept' }).isDisabled()).toBe(true);
      await expect.poll(() => page.getByRole('button', { name: 'Decline' }).isDisabled()).toBe(true);
      await snap(page, 'invite-expired');
      await context.close();
    });
  });
});
