import { type HookContext, hookContexts, hookEventsByContext, hookRoutesByContext } from '@wharf/contract';
import type { Actor } from '../../access/actor.ts';
import { userOf } from '../../access/rules.ts';
import { httpError } from '../../http/errors.ts';
import { enqueueJob } from '../../jobs/queue.ts';
import { newId, now } from '../../lib/ids.ts';
import { readJson } from '../../lib/json.ts';
import { keptCount, pageIds, totalOf } from '../../lib/paging.ts';
import type { WharfApp } from '../../wharfApp.ts';
import { hookContextRules } from './contexts.ts';
import { createHook, deleteHook, findHook, toHook, updateHook } from './service.ts';

export function hookRoutes(app: WharfApp) {
  for (const context of hookContexts) bindHookRoutes(app, context);
}

function bindHookRoutes(app: WharfApp, context: HookContext) {
  const { db, sealer, hookOutbound: outbound } = app;
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
    const ids = db.selectFrom('hook_deliveries').select('hook_deliveries.id').where('hook_id', '=', params.hookId);
    const kept = { list: 'hook_deliveries', ownerId: params.hookId } as const;
    const newestFirst = (q: typeof ids) => q.orderBy('date', 'desc').orderBy('id', 'desc');
    const rows = await db
      .selectFrom(pageIds(ids, query, newestFirst, kept).as('page'))
      .innerJoin('hook_deliveries', 'hook_deliveries.id', 'page.id')
      .selectAll('hook_deliveries')
      .select('page.list_total')
      .orderBy('hook_deliveries.date', 'desc')
      .orderBy('hook_deliveries.id', 'desc')
      .execute();
    const items = rows.map((row) => ({
      _id: row.id,
      success: row.success === 1,
      date: row.date,
      type: row.type,
      data: readJson<unknown>(row.data),
    }));
    return { items, count: await totalOf(rows, query, () => keptCount(db, kept)) };
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
