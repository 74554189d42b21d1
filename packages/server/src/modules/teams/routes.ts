import { api } from '@wharf/contract';
import { type Guard, param } from '../../access/guards.ts';
import { userOf } from '../../access/rules.ts';
import { feature } from '../../features/feature.ts';
import type { PartsOf } from '../../features/parts.ts';
import { httpError, invalidField } from '../../http/errors.ts';
import { getTeam, listTeamMembers, listTeams } from './queries.ts';
import { addTeamMember, createTeam, deleteTeam, removeTeamMember, updateTeam } from './service.ts';

const needs = ['access', 'db', 'handle'] as const;

function teamRoutes(parts: PartsOf<(typeof needs)[number]>) {
  const { db, access } = parts;

  parts.handle(api.listTeams, access.orgMember, ({ params, query }) => listTeams(db, params.orgId, query));

  parts.handle(api.createTeam, access.orgAdmin, ({ actor, params, body }) =>
    createTeam(db, userOf(actor), params.orgId, body),
  );

  parts.handle(api.getTeam, access.teamViewer, ({ team }) => getTeam(db, team.id));

  parts.handle(api.updateTeam, access.teamAdmin, ({ actor, team, body }) => updateTeam(db, userOf(actor), team, body));

  parts.handle(api.deleteTeam, access.teamAdmin, async ({ actor, team }) => {
    await deleteTeam(db, userOf(actor), team);
  });

  parts.handle(api.listTeamMembers, access.teamViewer, ({ team }) => listTeamMembers(db, team.id));

  parts.handle(api.addTeamMember, access.teamAdmin, async ({ actor, team, params, body }) => {
    if (body.member !== params.memberId) {
      throw invalidField('member', 'Must be the member of the path');
    }
    return addTeamMember(db, userOf(actor), team, params.memberId);
  });

  /** A member of the path's team, for the admins of its organization. */
  const teamMember = (async (actor, params) => {
    const granted = await access.teamAdmin(actor, params);
    const row = await db
      .selectFrom('team_members')
      .select('member_id')
      .where('team_id', '=', granted.team.id)
      .where('member_id', '=', param(params, 'memberId'))
      .executeTakeFirst();
    if (!row) throw httpError('TEAM_MEMBER_NOT_FOUND', 'Team member not found');
    return granted;
  }) satisfies Guard;

  parts.handle(api.removeTeamMember, teamMember, async ({ actor, team, params }) => {
    if (!(await removeTeamMember(db, userOf(actor), team, params.memberId)))
      throw httpError('TEAM_MEMBER_NOT_FOUND', 'Team member not found');
  });
}

/** Teams. */
export const teamsFeature = feature({ name: 'teams', needs, routes: teamRoutes });
