import type { User } from '@wharf/contract';
import type { Database, Db, Executor } from '../../db/schema.ts';
import { httpError } from '../../http/errors.ts';
import { newId, now } from '../../lib/ids.ts';

export function toUser(row: Database['users']): User {
  return { _id: row.id, name: row.name, email: row.email, provider: row.provider, createdAt: row.created_at };
}

export async function getUser(db: Executor, userId: string): Promise<User> {
  const row = await db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
  if (!row) throw httpError('USER_NOT_FOUND', 'User not found');
  return toUser(row);
}

/** The user behind a sign-in identity, created at their first sign-in. */
export async function findOrCreateUser(
  db: Db,
  identity: { provider: string; providerId: string; name: string; email: string | null },
) {
  const existing = await db
    .selectFrom('users')
    .selectAll()
    .where('provider', '=', identity.provider)
    .where('provider_id', '=', identity.providerId)
    .executeTakeFirst();
  if (existing) return toUser(existing);
  const row = {
    id: newId(),
    name: identity.name,
    email: identity.email,
    provider: identity.provider,
    provider_id: identity.providerId,
    created_at: now(),
  };
  await db
    .insertInto('users')
    .values(row)
    .onConflict((oc) => oc.columns(['provider', 'provider_id']).doNothing())
    .execute();
  const created = await db
    .selectFrom('users')
    .selectAll()
    .where('provider', '=', identity.provider)
    .where('provider_id', '=', identity.providerId)
    .executeTakeFirstOrThrow();
  return toUser(created);
}
