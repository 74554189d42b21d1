import { HOOK_SECRET_LENGTH, type Hook, type HookBody, type HookContext, hookEventsByContext } from '@wharf/contract';
import type { Database, Db } from '../../db/schema.ts';
import { recordEvent } from '../../events/outbox.ts';
import { httpError, invalidField } from '../../http/errors.ts';
import { newId, now, randomString } from '../../lib/ids.ts';
import { readJson } from '../../lib/json.ts';
import type { Sealer } from '../../lib/secrets.ts';
import type { OutboundGuard } from '../../outbound/guard.ts';
import { type HookOwnerScope, hookContextRules } from './contexts.ts';

type HookRow = Database['hooks'];
const SECRET_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function toHook(sealer: Sealer, row: HookRow): Hook {
  const config = readJson<Hook['config']>(row.config);
  return {
    _id: row.id,
    type: row.type as Hook['type'],
    name: row.name,
    events: readJson<string[]>(row.events),
    createdAt: row.created_at,
    config: config.secret ? { ...config, secret: sealer.open(config.secret) } : config,
  };
}

/** The stored config: a web hook gets a random secret when none is given; secrets are sealed at rest. */
function storedConfig(sealer: Sealer, body: HookBody): string {
  if (body.type !== 'web') return JSON.stringify(body.config);
  const secret = body.config.secret ?? randomString(HOOK_SECRET_LENGTH, SECRET_ALPHABET);
  return JSON.stringify({ url: body.config.url, secret: sealer.seal(secret) });
}

export async function findHook(db: Db, context: HookContext, ownerId: string, hookId: string) {
  const row = await db
    .selectFrom('hooks')
    .selectAll()
    .where('id', '=', hookId)
    .where('context', '=', context)
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
  if (!row) throw httpError('HOOK_NOT_FOUND', 'Hook not found');
  return row;
}

interface HookChange {
  db: Db;
  sealer: Sealer;
  outbound: OutboundGuard;
  context: HookContext;
  ownerId: string;
  scope: HookOwnerScope;
  actorId: string;
}

/** A hook's URL must be one the outbound guard allows (checked again at every delivery, after DNS). */
function mustBeAllowedUrl(outbound: OutboundGuard, body: HookBody) {
  if (body.type === 'email') return;
  const problem = outbound.problemWithUrl(body.config.url);
  if (problem)
    throw httpError('UPSTREAM_NOT_ALLOWED', `config.url: ${problem}`, [{ field: 'config.url', message: problem }]);
}

/** A hook hears only what happens within its owner (a user's own hook: the user events). */
function mustBeEventsOfContext(context: HookContext, body: HookBody) {
  const offered: readonly string[] = hookEventsByContext[context];
  const foreign = body.events.filter((event) => !offered.includes(event));
  if (foreign.length > 0) throw invalidField('events', `Not an event of this hook's owner: ${foreign.join(', ')}`);
}

export async function createHook(
  { db, sealer, outbound, context, ownerId, scope, actorId }: HookChange,
  body: HookBody,
) {
  mustBeEventsOfContext(context, body);
  mustBeAllowedUrl(outbound, body);
  const row: HookRow = {
    id: newId(),
    context,
    owner_id: ownerId,
    // A user's own hook belongs to no organization.
    org_id: scope.orgId ?? '',
    type: body.type,
    name: body.name,
    events: JSON.stringify([...new Set(body.events)]),
    config: storedConfig(sealer, body),
    created_at: now(),
  };
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('hooks').values(row).execute();
    const name = hookContextRules[context].events?.created;
    if (name)
      await recordEvent(trx, { name, actorId, ...scope, data: { hookId: row.id, type: row.type, name: row.name } });
  });
  return toHook(sealer, row);
}

export async function updateHook(change: HookChange, hookId: string, body: HookBody) {
  const { db, sealer, outbound, context, ownerId, scope, actorId } = change;
  await findHook(db, context, ownerId, hookId);
  mustBeEventsOfContext(context, body);
  mustBeAllowedUrl(outbound, body);
  const columns = {
    type: body.type,
    name: body.name,
    events: JSON.stringify([...new Set(body.events)]),
    config: storedConfig(sealer, body),
  };
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('hooks').set(columns).where('id', '=', hookId).execute();
    const name = hookContextRules[context].events?.updated;
    if (name) await recordEvent(trx, { name, actorId, ...scope, data: { hookId, type: body.type, name: body.name } });
  });
  return toHook(sealer, await findHook(db, context, ownerId, hookId));
}

export async function deleteHook({ db, context, ownerId, scope, actorId }: HookChange, hookId: string) {
  const hook = await findHook(db, context, ownerId, hookId);
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('hook_deliveries').where('hook_id', '=', hookId).execute();
    await trx.deleteFrom('hooks').where('id', '=', hookId).execute();
    const name = hookContextRules[context].events?.deleted;
    if (name) await recordEvent(trx, { name, actorId, ...scope, data: { hookId, type: hook.type, name: hook.name } });
  });
}
