import { api } from '@wharf/contract';
import { mustAdminOrg, mustAdminTeam, mustBeOrgMember, mustSeeTeam, userOf } from '../../access/rules.ts';
import { httpError, invalidField } from '../../http/errors.ts';
import type { WharfApp } from '../../wharfApp.ts';
import { getTeam, listTeamMembers, listTeams } from './queries.ts';
import { addTeamMember, createTeam, deleteTeam, removeTeamMember, updateTeam } from './service.ts';

export function teamRoutes(app: WharfApp) {
  const { db } = app;

  app.handle(api.listTeams, async ({ actor, params, query }) => {
    await mustBeOrgMember(db, actor, params.orgId);
    return listTeams(db, params.orgId, query);
  });

  app.handle(api.createTeam, async ({ actor, params, body }) => {
    await mustAdminOrg(db, actor, params.orgId);
    return createTeam(db, userOf(actor), params.orgId, body);
  });

  app.handle(api.getTeam, async ({ actor, params }) => {
    await mustSeeTeam(db, actor, params.teamId);
    return getTeam(db, params.teamId);
  });

  app.handle(api.updateTeam, async ({ actor, params, body }) => {
    const { team } = await mustAdminTeam(db, actor, params.teamId);
    return updateTeam(db, userOf(actor), team, body);
  });

  app.handle(api.deleteTeam, async ({ actor, params }) => {
    const { team } = await mustAdminTeam(db, actor, params.teamId);
    await deleteTeam(db, userOf(actor), team);
  });

  app.handle(api.listTeamMembers, async ({ actor, params }) => {
    await mustSeeTeam(db, actor, params.teamId);
    return listTeamMembers(db, params.teamId);
  });

  app.handle(api.addTeamMember, async ({ actor, params, body }) => {
    const { team } = await mustAdminTeam(db, actor, params.teamId);
    if (body.member !== params.memberId) {
      throw invalidField('member', 'Must be the member of the path');
    }
    return addTeamMember(db, userOf(actor), team, params.memberId);
  });

  app.handle(api.removeTeamMember, async ({ actor, params }) => {
    const { team } = await mustAdminTeam(db, actor, params.teamId);
    if (!(await removeTeamMember(db, userOf(actor), team, params.memberId)))
      throw httpError('TEAM_MEMBER_NOT_FOUND', 'Team member not found');
  });
}
