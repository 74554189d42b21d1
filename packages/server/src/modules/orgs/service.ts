import type { Db } from '../../db/schema.ts';
import { recordEvent } from '../../events/outbox.ts';
import { colorFromName } from '../../lib/colors.ts';
import { newId, now } from '../../lib/ids.ts';
import { getOrg } from './queries.ts';

/** Creates an organization owned by its creator. */
export async function createOrg(db: Db, userId: string, { name, color }: { name: string; color?: string }) {
  const orgId = newId();
  const createdAt = now();
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('orgs')
      .values({
        id: orgId,
        name,
        color: color ?? colorFromName(name),
        logo_type: null,
        logo_version: null,
        created_at: createdAt,
      })
      .execute();
    await trx
      .insertInto('members')
      .values({ id: newId(), org_id: orgId, user_id: userId, admin: 1, owner: 1, created_at: createdAt })
      .execute();
    // The creator's own hooks hear it: no hook of the organization exists yet.
    await recordEvent(trx, { name: 'org_created', actorId: userId, userId, orgId, data: { name } });
  });
  return getOrg(db, orgId);
}

export async function updateOrg(db: Db, userId: string, orgId: string, changes: { name: string; color: string }) {
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('orgs').set(changes).where('id', '=', orgId).execute();
    await recordEvent(trx, { name: 'org_updated', actorId: userId, orgId, data: changes });
  });
  return getOrg(db, orgId);
}
