import { type HookContext, hookContexts, hookEventsByContext, hookRoutesByContext } from '@wharf/contract';
import type { Actor } from '../../access/actor.ts';
import { userOf } from '../../access/rules.ts';
import { httpError } from '../../http/errors.ts';
import { enqueueJob } from '../../jobs/queue.ts';
import { newId, now } from '../../lib/ids.ts';
import { readJson } from '../../lib/json.ts';
import { inPageOrder, pageOf } from '../../lib/paging.ts';
import type { WharfApp } from '../../wharfApp.ts';
import { hookContextRules } from './contexts.ts';
import { createHook, deleteHook, findHook, toHook, updateHook } from './service.ts';

export function hookRoutes(app: WharfApp) {
  for (const context of hookContexts) bindHookRoutes(app, context);
}

function bindHookRoutes(app: WharfApp, context: HookContext) {
  const { db, sealer, outbound } = app;
  const routes = hookRoutesByContext[context];
  const rules = hookContextRules[context];

  async function owner(actor: Actor, params: unknown) {
    const named = rules.param ? (params as Record<string, string>)[rules.param] : undefined;
    const { ownerId, scope } = await rules.authorize(db, actor, named);
    return { db, sealer, outbound, context, ownerId, scope, actorId: userOf(actor) };
  }

  app.handle(routes.list, async ({ actor, params }) => {
    const { ownerId } = await owner(actor, params);
    const rows = await db
      .selectFrom('hooks')
      .selectAll()
      .where('context', '=', context)
      .where('owner_id', '=', ownerId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map((row) => toHook(sealer, row));
  });

  app.handle(routes.create, async ({ actor, params, body }) => createHook(await owner(actor, params), body));

  app.handle(routes.get, async ({ actor, params }) => {
    const { ownerId } = await owner(actor, params);
    return toHook(sealer, await findHook(db, context, ownerId, params.hookId));
  });

  app.handle(routes.update, async ({ actor, params, body }) =>
    updateHook(await owner(actor, params), params.hookId, body),
  );

  app.handle(routes.remove, async ({ actor, params }) => deleteHook(await owner(actor, params), params.hookId));

  app.handle(routes.events, async ({ actor, params }) => {
    await owner(actor, params);
    return [...hookEventsByContext[context]];
  });

  app.handle(routes.deliveries, async ({ actor, params, query }) => {
    const { ownerId } = await owner(actor, params);
    await findHook(db, context, ownerId, params.hookId);
    const found = await pageOf(
      db.selectFrom('hook_deliveries').select('id').where('hook_id', '=', params.hookId),
      query,
      (q) => q.orderBy('date', 'desc').orderBy('id', 'desc'),
      (row) => row.id,
      { db, kept: { list: 'hook_deliveries', ownerId: params.hookId } },
    );
    const rows = found.items.length
      ? await db.selectFrom('hook_deliveries').selectAll().where('id', 'in', found.items).execute()
      : [];
    const items = inPageOrder(found.items, rows).map((row) => ({
      _id: row.id,
      success: row.success === 1,
      date: row.date,
      type: row.type,
      data: readJson<unknown>(row.data),
    }));
    return { items, count: found.count };
  });

  // Both queue a new delivery job; the answer comes before it is sent (the Deliveries tab shows it).
  app.handle(routes.redeliver, async ({ actor, params }) => {
    const { ownerId } = await owner(actor, params);
    await findHook(db, context, ownerId, params.hookId);
    const delivery = await db
      .selectFrom('hook_deliveries')
      .innerJoin('jobs', 'jobs.id', 'hook_deliveries.job_id')
      .select(['jobs.payload', 'jobs.event_id'])
      .where('hook_deliveries.id', '=', params.deliveryId)
      .where('hook_deliveries.hook_id', '=', params.hookId)
      .executeTakeFirst();
    if (!delivery) throw httpError('DELIVERY_NOT_FOUND', 'Delivery not found');
    const payload = readJson<unknown>(delivery.payload);
    await enqueueJob(db, { kind: 'hook', hookId: params.hookId, eventId: delivery.event_id, payload });
    void app.jobs.wake();
  });

  app.handle(routes.test, async ({ actor, params }) => {
    const { ownerId, scope } = await owner(actor, params);
    const hook = await findHook(db, context, ownerId, params.hookId);
    const ping = {
      id: newId(),
      event: 'ping',
      createdAt: now(),
      data: { ...scope, hookId: hook.id, hookName: hook.name },
    };
    await enqueueJob(db, { kind: 'hook', hookId: hook.id, eventId: ping.id, payload: ping });
    void app.jobs.wake();
  });
}
