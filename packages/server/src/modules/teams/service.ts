import type { Db } from '../../db/schema.ts';
import { recordEvent } from '../../events/outbox.ts';
import { invalidField } from '../../http/errors.ts';
import { colorFromName } from '../../lib/colors.ts';
import { newId, now } from '../../lib/ids.ts';
import { deleteSiteRows } from '../sites/service.ts';
import { getTeam, getTeamMember } from './queries.ts';

export async function createTeam(
  db: Db,
  actorId: string,
  orgId: string,
  { name, color }: { name: string; color?: string },
) {
  const teamId = newId();
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('teams')
      .values({
        id: teamId,
        org_id: orgId,
        name,
        color: color ?? colorFromName(name),
        logo_type: null,
        logo_version: null,
        created_at: now(),
      })
      .execute();
    await recordEvent(trx, { name: 'team_added', actorId, orgId, teamId, data: { name } });
  });
  return getTeam(db, teamId);
}

export async function updateTeam(
  db: Db,
  actorId: string,
  team: { id: string; org_id: string },
  changes: { name: string; color: string },
) {
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('teams').set(changes).where('id', '=', team.id).execute();
    await recordEvent(trx, { name: 'team_updated', actorId, orgId: team.org_id, teamId: team.id, data: changes });
  });
  return getTeam(db, team.id);
}

/** Deleting a team deletes its sites with it: a site always belongs to a team. */
export async function deleteTeam(db: Db, actorId: string, team: { id: string; org_id: string; name: string }) {
  await db.transaction().execute(async (trx) => {
    const sites = await trx.selectFrom('sites').select(['id', 'name']).where('team_id', '=', team.id).execute();
    for (const site of sites) await deleteSiteRows(trx, site.id);
    const hookIds = trx.selectFrom('hooks').select('id').where('context', '=', 'teams').where('owner_id', '=', team.id);
    await trx.deleteFrom('hook_deliveries').where('hook_id', 'in', hookIds).execute();
    await trx.deleteFrom('hooks').where('context', '=', 'teams').where('owner_id', '=', team.id).execute();
    await trx.deleteFrom('team_members').where('team_id', '=', team.id).execute();
    await trx.deleteFrom('teams').where('id', '=', team.id).execute();
    await recordEvent(trx, {
      name: 'team_deleted',
      actorId,
      orgId: team.org_id,
      teamId: team.id,
      data: {
        name: team.name,
        siteIds: sites.map((s) => s.id),
        // The sites go with the team without events of their own: the audit log names them from here.
        siteNames: Object.fromEntries(sites.map((s) => [s.id, s.name])),
      },
    });
  });
}

export async function addTeamMember(db: Db, actorId: string, team: { id: string; org_id: string }, memberId: string) {
  await db.transaction().execute(async (trx) => {
    const member = await trx
      .selectFrom('members')
      .select(['id', 'user_id'])
      .where('id', '=', memberId)
      .where('org_id', '=', team.org_id)
      .executeTakeFirst();
    if (!member) {
      throw invalidField('memberId', 'Must be a member of the organization');
    }
    const inserted = await trx
      .insertInto('team_members')
      .values({ team_id: team.id, member_id: memberId, created_at: now() })
      .onConflict((oc) => oc.columns(['team_id', 'member_id']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) {
      await recordEvent(trx, {
        name: 'team_member_added',
        actorId,
        orgId: team.org_id,
        teamId: team.id,
        data: { memberId, userId: member.user_id },
      });
    }
  });
  return getTeamMember(db, team.id, memberId);
}

export async function removeTeamMember(
  db: Db,
  actorId: string,
  team: { id: string; org_id: string },
  memberId: string,
) {
  return db.transaction().execute(async (trx) => {
    const deleted = await trx
      .deleteFrom('team_members')
      .where('team_id', '=', team.id)
      .where('member_id', '=', memberId)
      .executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0) return false;
    const member = await trx.selectFrom('members').select('user_id').where('id', '=', memberId).executeTakeFirst();
    await recordEvent(trx, {
      name: 'team_member_deleted',
      actorId,
      orgId: team.org_id,
      teamId: team.id,
      data: { memberId, userId: member?.user_id ?? null },
    });
    return true;
  });
}
