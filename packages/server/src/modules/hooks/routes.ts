import { type HookContext, hookContexts, hookEventsByContext, hookRoutesByContext } from '@wharf/contract';
import type { SelectQueryBuilder } from 'kysely';
import { type Guard, param } from '../../access/guards.ts';
import { userOf } from '../../access/rules.ts';
import type { Database } from '../../db/schema.ts';
import { feature } from '../../features/feature.ts';
import type { PartsOf } from '../../features/parts.ts';
import { httpError } from '../../http/errors.ts';
import { enqueueJob } from '../../jobs/queue.ts';
import { newId, now } from '../../lib/ids.ts';
import { readJson } from '../../lib/json.ts';
import { keptCount, offsetOf, pageIds, pagesInOnePass, totalOf } from '../../lib/paging.ts';
import { hookContextRules } from './contexts.ts';
import { startHookDeliveries } from './delivery/start.ts';
import { createHook, deleteHook, findHook, toHook, updateHook } from './service.ts';

const needs = ['config', 'db', 'dispatcher', 'handle', 'hookOutbound', 'jobs', 'mailer', 'sealer'] as const;

function hookRoutes(parts: PartsOf<(typeof needs)[number]>) {
  for (const context of hookContexts) bindHookRoutes(parts, context);
}

function bindHookRoutes(parts: PartsOf<'db' | 'handle' | 'hookOutbound' | 'jobs' | 'sealer'>, context: HookContext) {
  const { db, sealer, hookOutbound: outbound } = parts;
  const routes = hookRoutesByContext[context];
  const rules = hookContextRules[context];

  /** The owner of the path's hooks, for a caller who may see and change them. */
  const owner = (async (actor, params) => {
    const named = rules.param ? param(params, rules.param) : undefined;
    const { ownerId, scope } = await rules.authorize(db, actor, named);
    return { change: { db, sealer, outbound, context, ownerId, scope, actorId: userOf(actor) } };
  }) satisfies Guard;

  /** As owner, and the hook of the path, which must be one of the owner's. */
  const ownHook = (async (actor, params) => {
    const { change } = await owner(actor, params);
    return { change, hook: await findHook(db, context, change.ownerId, param(params, 'hookId')) };
  }) satisfies Guard;

  parts.handle(routes.list, owner, async ({ change: { ownerId } }) => {
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

  parts.handle(routes.create, owner, ({ change, body }) => createHook(change, body));

  parts.handle(routes.get, ownHook, ({ hook }) => toHook(sealer, hook));

  parts.handle(routes.update, ownHook, ({ change, hook, body }) => updateHook(change, hook.id, body));

  parts.handle(routes.remove, ownHook, ({ change, hook }) => deleteHook(change, hook.id));

  parts.handle(routes.events, owner, () => [...hookEventsByContext[context]]);

  parts.handle(routes.deliveries, ownHook, async ({ params, query }) => {
    const ids = db.selectFrom('hook_deliveries').select('hook_deliveries.id').where('hook_id', '=', params.hookId);
    const kept = { list: 'hook_deliveries', ownerId: params.hookId } as const;
    const newestFirst = <Q extends SelectQueryBuilder<Database, 'hook_deliveries', object>>(q: Q) =>
      q.orderBy('date', 'desc').orderBy('id', 'desc') as Q;
    const window = { size: query.size, offset: offsetOf(query) };
    const rows = pagesInOnePass(db, kept)
      ? await pageIds(ids.clearSelect().selectAll('hook_deliveries'), window, newestFirst, kept).execute()
      : await db
          .selectFrom(pageIds(ids, window, newestFirst, kept).as('page'))
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
  /** As ownHook, and one of the hook's deliveries, named by the path. */
  const ownDelivery = (async (actor, params) => {
    const { hook } = await ownHook(actor, params);
    const delivery = await db
      .selectFrom('hook_deliveries')
      .innerJoin('jobs', 'jobs.id', 'hook_deliveries.job_id')
      .select(['jobs.payload', 'jobs.event_id'])
      .where('hook_deliveries.id', '=', param(params, 'deliveryId'))
      .where('hook_deliveries.hook_id', '=', hook.id)
      .executeTakeFirst();
    if (!delivery) throw httpError('DELIVERY_NOT_FOUND', 'Delivery not found');
    return { delivery };
  }) satisfies Guard;

  parts.handle(routes.redeliver, ownDelivery, async ({ delivery, params }) => {
    const payload = readJson<unknown>(delivery.payload);
    await enqueueJob(db, { kind: 'hook', hookId: params.hookId, eventId: delivery.event_id, payload });
    void parts.jobs.wake();
  });

  parts.handle(routes.test, ownHook, async ({ change: { scope }, hook }) => {
    const ping = {
      id: newId(),
      event: 'ping',
      createdAt: now(),
      data: { ...scope, hookId: hook.id, hookName: hook.name },
    };
    await enqueueJob(db, { kind: 'hook', hookId: hook.id, eventId: ping.id, payload: ping });
    void parts.jobs.wake();
  });
}

/** Web hooks: their routes, and on a worker their deliveries. */
export const hooksFeature = feature({ name: 'hooks', needs, routes: hookRoutes, work: startHookDeliveries });
