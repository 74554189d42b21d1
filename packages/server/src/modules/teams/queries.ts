import type { Team, TeamMember } from '@wharf/contract';
import type { Database, Executor } from '../../db/schema.ts';
import { httpError } from '../../http/errors.ts';
import { type Page, pageOf } from '../../lib/paging.ts';
import { logoUrl } from '../logos/logoUrl.ts';

export function toTeam(row: Database['teams']): Team {
  return {
    _id: row.id,
    orgId: row.org_id,
    name: row.name,
    color: row.color,
    logo: logoUrl('teams', row.id, row.logo_version),
    createdAt: row.created_at,
  };
}

export async function getTeam(db: Executor, teamId: string) {
  const row = await db.selectFrom('teams').selectAll().where('id', '=', teamId).executeTakeFirst();
  if (!row) throw httpError('TEAM_NOT_FOUND', 'Team not found');
  return toTeam(row);
}

export function listTeams(db: Executor, orgId: string, page: Page) {
  return pageOf(
    db.selectFrom('teams').selectAll().where('org_id', '=', orgId),
    page,
    (q) => q.orderBy('created_at', 'desc').orderBy('id', 'desc'),
    toTeam,
  );
}

function teamMembers(db: Executor, teamId: string) {
  return db
    .selectFrom('team_members')
    .innerJoin('members', 'members.id', 'team_members.member_id')
    .innerJoin('users', 'users.id', 'members.user_id')
    .select(['members.id as memberId', 'users.name', 'users.email', 'members.admin', 'members.owner'])
    .where('team_members.team_id', '=', teamId);
}

const toTeamMember = (row: {
  memberId: string;
  name: string;
  email: string | null;
  admin: number;
  owner: number;
}): TeamMember => ({
  memberId: row.memberId,
  name: row.name,
  email: row.email,
  admin: row.admin === 1 || row.owner === 1,
});

export async function listTeamMembers(db: Executor, teamId: string) {
  return (await teamMembers(db, teamId).orderBy('users.name').execute()).map(toTeamMember);
}

export async function getTeamMember(db: Executor, teamId: string, memberId: string) {
  const row = await teamMembers(db, teamId).where('members.id', '=', memberId).executeTakeFirst();
  if (!row) throw httpError('TEAM_MEMBER_NOT_FOUND', 'Team member not found');
  return toTeamMember(row);
}
