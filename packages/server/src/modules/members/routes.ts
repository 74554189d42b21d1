import { api } from '@wharf/contract';
import { type Guard, param } from '../../access/guards.ts';
import { mustBeOrgMember, mustOwnOrg, userOf } from '../../access/rules.ts';
import { recordEvent } from '../../events/outbox.ts';
import { feature } from '../../features/feature.ts';
import type { PartsOf } from '../../features/parts.ts';
import { httpError } from '../../http/errors.ts';
import { getMember, listMembers, toOrgMember } from './queries.ts';

type Member = Awaited<ReturnType<typeof getMember>>;

const needs = ['access', 'db', 'handle'] as const;

function memberRoutes(parts: PartsOf<(typeof needs)[number]>) {
  parts.handle(api.listMembers, parts.access.orgMember, ({ params, query }) =>
    listMembers(parts.db, params.orgId, query.search, query),
  );

  /** The member of the path, for the owner of its organization. */
  const ownerOfMember: Guard<{ member: Member }> = async (actor, params) => {
    const member = await getMember(parts.db, param(params, 'memberId'));
    await mustOwnOrg(parts.db, actor, member.org_id);
    return { member };
  };

  parts.handle(api.updateMember, ownerOfMember, async ({ actor, member, body }) => {
    if (member.owner === 1) throw httpError('OWNER_PROTECTED', 'The owner is always an admin');
    await parts.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('members')
        .set({ admin: body.admin ? 1 : 0 })
        .where('id', '=', member.id)
        .execute();
      await recordEvent(trx, {
        name: 'org_member_updated',
        actorId: userOf(actor),
        orgId: member.org_id,
        data: { memberId: member.id, userId: member.user_id, admin: body.admin },
      });
    });
    return toOrgMember({ ...member, admin: body.admin ? 1 : 0 });
  });

  // The owner removes members; anyone but the owner may leave on their own.
  const ownerOrSelf: Guard<{ member: Member }> = async (actor, params) => {
    const member = await getMember(parts.db, param(params, 'memberId'));
    const self = await mustBeOrgMember(parts.db, actor, member.org_id);
    if (self.id !== member.id && self.owner !== 1)
      throw httpError('ROLE_INSUFFICIENT', 'Only the owner of the organization can do this');
    return { member };
  };

  parts.handle(api.deleteMember, ownerOrSelf, async ({ actor, member }) => {
    if (member.owner === 1) throw httpError('OWNER_PROTECTED', 'The owner cannot be removed from the organization');
    await parts.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('team_members').where('member_id', '=', member.id).execute();
      await trx.deleteFrom('members').where('id', '=', member.id).execute();
      await recordEvent(trx, {
        name: 'org_member_deleted',
        actorId: userOf(actor),
        orgId: member.org_id,
        data: { memberId: member.id, userId: member.user_id },
      });
    });
  });
}

/** Members of organizations and teams. */
export const membersFeature = feature({ name: 'members', needs, routes: memberRoutes });
