import { hookEventsByContext } from '@wharf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus } from '../../../test/client.ts';
import { startTestServer, type TestServer } from '../../../test/harness.ts';
import { buildWorld, type World } from '../../../test/world.ts';

describe('hooks', () => {
  let server: TestServer;
  let world: World;

  beforeAll(async () => {
    server = await startTestServer();
    world = await buildWorld(server.url);
  });
  afterAll(() => server.close());

  it('gives a web hook a random 32-character secret when none is given', async () => {
    const hook = expectStatus(
      await world.clients.owner.post(`/api/v1/orgs/${world.org._id}/hooks`, {
        type: 'web',
        name: 'deploys',
        events: ['site_release_created'],
        config: { url: 'https://example.com/hook' },
      }),
      200,
    );
    expect(hook.config.secret).toMatch(/^[A-Za-z0-9]{32}$/);
    const row = await server.app.db
      .selectFrom('hooks')
      .select('config')
      .where('id', '=', hook._id)
      .executeTakeFirstOrThrow();
    expect(row.config).not.toContain(hook.config.secret);
  });

  it('offers each context the events that happen within it', async () => {
    const site = expectStatus(await world.clients.teammate.get(`/api/v1/sites/${world.site._id}/hook-events`), 200);
    expect(site).toEqual([...hookEventsByContext.sites]);
    expect(site).not.toContain('org_created');
  });

  it('refuses an email hook without a valid address', async () => {
    const answer = await world.clients.owner.post(`/api/v1/teams/${world.team._id}/hooks`, {
      type: 'email',
      name: 'mail',
      events: ['team_updated'],
      config: { to: 'nobody' },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.details).toContainEqual({ field: 'config.to', message: 'Invalid email' });
  });

  it('refuses a hook that hears no event, on create and on update, and changes nothing', async () => {
    const hooks = `/api/v1/teams/${world.team._id}/hooks`;
    const body = { type: 'slack', name: 'quiet', events: [], config: { url: 'https://hooks.slack.example/q' } };
    const before = expectStatus(await world.clients.owner.get(hooks), 200);
    const created = await world.clients.owner.post(hooks, body);
    expect(created.status).toBe(400);
    expect(created.body.code).toBe('VALIDATION_FAILED');
    expect(created.body.details).toContainEqual({ field: 'events', message: 'Choose at least one event' });
    expect(expectStatus(await world.clients.owner.get(hooks), 200)).toEqual(before);

    const hook = expectStatus(await world.clients.owner.post(hooks, { ...body, events: ['team_updated'] }), 200);
    const updated = await world.clients.owner.put(`${hooks}/${hook._id}`, body);
    expect(updated.status).toBe(400);
    expect(updated.body.code).toBe('VALIDATION_FAILED');
    expect(expectStatus(await world.clients.owner.get(`${hooks}/${hook._id}`), 200).events).toEqual(['team_updated']);
  });

  it('has no deliveries until something is delivered', async () => {
    const hook = expectStatus(
      await world.clients.owner.post(`/api/v1/sites/${world.site._id}/hooks`, {
        type: 'slack',
        name: 'chat',
        events: ['site_release_created'],
        config: { url: 'https://hooks.slack.example/x' },
      }),
      200,
    );
    const deliveries = await world.clients.owner.get(
      `/api/v1/sites/${world.site._id}/hooks/${hook._id}/deliveries?page=0&size=10`,
    );
    expect(expectStatus(deliveries, 200)).toEqual({ items: [], count: 0 });
  });
});
