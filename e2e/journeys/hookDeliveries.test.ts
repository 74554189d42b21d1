import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expectStatus } from '@wharf/server/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeInBrowser } from '../support/browser.ts';
import { expectPath, expectVisible, openStage, type Stage, snap, toast, visit } from '../support/journey.ts';

/** A web hook receiver on the loopback that answers `status` and keeps what it was sent. */
async function startReceiver() {
  const state = { status: 200, received: [] as { event: string; body: string }[] };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      state.received.push({ event: String(request.headers['x-wharf-event']), body: Buffer.concat(chunks).toString() });
      response.writeHead(state.status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(state.status === 200 ? { ok: true } : { error: 'receiver is down' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/wharf`, state, close: () => server.close() };
}

describeInBrowser('hook deliveries', () => {
  let stage: Stage;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    // The receiver is on this machine, which Wharf calls only when its operator allows it.
    [stage, receiver] = await Promise.all([openStage({ WHARF_ALLOW_PRIVATE_UPSTREAMS: 'on' }), startReceiver()]);
  });
  afterAll(async () => {
    receiver?.close();
    await stage?.close();
  });

  it('sends a test to a site web hook, shows the attempt and its exchange, and redelivers to a failing receiver', async () => {
    const { world } = stage;
    const hook = expectStatus(
      await world.clients.teammate.post(`/api/v1/sites/${world.site._id}/hooks`, {
        type: 'web',
        name: 'Receiver',
        events: ['site_release_created'],
        config: { url: receiver.url },
      }),
      200,
    );
    const { context, page } = await visit(stage, { user: 'teammate', orgId: world.org._id });
    const deliveries = `/sites/${world.site._id}/hooks/${hook._id}/deliveries`;
    await page.goto(`/sites/${world.site._id}/hooks/${hook._id}`);
    await page.getByRole('tab', { name: 'Deliveries' }).click();
    await expectPath(page, deliveries);
    await expectVisible(page.getByText('No deliveries yet'));
    await snap(page, 'hook-deliveries-empty');

    await page.getByRole('button', { name: 'Send test' }).click();
    await expectVisible(toast(page, 'Test event queued'));
    // The answer came before the attempt: the list is asked again until the attempt shows.
    const ping = page.getByRole('button', { name: /^Delivered: Test \(ping\), attempt 1/ });
    await expectVisible(ping);
    await expectVisible(page.getByText('HTTP 200'));
    expect(receiver.state.received.map((r) => r.event)).toEqual(['ping']);

    await ping.click();
    await expect.poll(() => ping.getAttribute('aria-expanded')).toBe('true');
    await expectVisible(page.getByText(`POST ${receiver.url}`));
    await expectVisible(page.getByLabel('Request headers').getByText('x-wharf-signature'));
    const sent = JSON.parse((await page.getByLabel('Request body').textContent()) ?? '');
    expect(sent).toMatchObject({ event: 'ping', data: { hookId: hook._id, siteId: world.site._id } });
    // The body is shown indented, as people read JSON.
    expect(await page.getByLabel('Request body').textContent()).toContain('\n  "event": "ping"');
    expect(await page.getByLabel('Response body').textContent()).toBe('{\n  "ok": true\n}');
    await snap(page, 'hook-deliveries');

    receiver.state.status = 500;
    await page.getByRole('button', { name: 'Redeliver Test (ping)' }).click();
    await expectVisible(toast(page, 'Delivery queued'));
    await expectVisible(page.getByRole('button', { name: /^Failed \(will retry\): Test \(ping\), attempt 1/ }));
    await expectVisible(page.getByText('HTTP 500'));
    await expectVisible(page.getByText('2 of 2 deliveries'));
    expect(receiver.state.received.map((r) => r.event)).toEqual(['ping', 'ping']);
    // The redelivery carries the same event: receivers can tell a repeat.
    expect(JSON.parse(receiver.state.received[1]!.body).id).toBe(JSON.parse(receiver.state.received[0]!.body).id);
    await snap(page, 'hook-deliveries-failed');
    await context.close();
  });

  it('lets a user add their own hook for their API tokens at /user/hooks, and test it', async () => {
    receiver.state.status = 200;
    const { context, page } = await visit(stage, { user: 'member', orgId: stage.world.org._id });
    await page.goto('/user');
    await page.getByRole('tab', { name: 'Hooks' }).click();
    await expectPath(page, '/user/hooks');
    await expectVisible(page.getByText('No hooks'));
    await page.getByRole('link', { name: 'Add hook' }).click();
    await expectPath(page, '/user/hooks/add');
    await page.getByRole('textbox', { name: /^Type/ }).click();
    await page.getByRole('option', { name: 'Web', exact: true }).click();
    // A user's own hook hears only what happens to the user.
    await expectVisible(page.getByText('API token created', { exact: true }));
    expect(await page.getByText('Site added', { exact: true }).count()).toBe(0);
    await page.getByRole('textbox', { name: /^Name/ }).fill('My tokens');
    await page.getByRole('textbox', { name: /^URL/ }).fill(receiver.url);
    await page.getByText('API token created', { exact: true }).click();
    await page.getByRole('button', { name: 'Create hook' }).click();
    await page.waitForURL(/\/user\/hooks\/[^/]+\/settings$/);
    await expectVisible(page.getByRole('heading', { name: 'My tokens' }));
    await snap(page, 'user-hook-settings');

    await page.getByRole('tab', { name: 'Deliveries' }).click();
    await page.getByRole('button', { name: 'Send test' }).click();
    await expectVisible(page.getByRole('button', { name: /^Delivered: Test \(ping\)/ }));
    await page.goto('/user/hooks');
    await expectVisible(page.getByRole('link', { name: /^Hook My tokens/ }));
    await snap(page, 'user-hooks');
    await context.close();
  });
});
