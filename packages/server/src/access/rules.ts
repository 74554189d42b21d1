import { reusableLookup } from '../db/reusableQuery.ts';
import type { Database, Executor } from '../db/schema.ts';
import { httpError } from '../http/errors.ts';
import type { Actor } from './actor.ts';

type MemberRow = Database['members'];

/** The user behind a caller that must be a person (a session or their API token). */
export function userOf(actor: Actor): string {
  if (actor.userId === null) throw httpError('SIGN_IN_REQUIRED', 'Sign in first');
  return actor.userId;
}

const membership = reusableLookup((db, userId: string, orgId: string) =>
  db.selectFrom('members').selectAll().where('org_id', '=', orgId).where('user_id', '=', userId),
);

export const isAdminOrOwner = (member: MemberRow) => member.admin === 1 || member.owner === 1;

/** Any member of the organization; others learn nothing of it (404). */
export async function mustBeOrgMember(db: Executor, actor: Actor, orgId: string): Promise<MemberRow> {
  const member = await membership(db, userOf(actor), orgId);
  if (!member) throw httpError('ORG_NOT_FOUND', 'Organization not found');
  return member;
}

/** spec.md §6: admins and owners change settings, invites, teams and their members, and sites. */
export async function mustAdminOrg(db: Executor, actor: Actor, orgId: string): Promise<MemberRow> {
  const member = await mustBeOrgMember(db, actor, orgId);
  if (!isAdminOrOwner(member))
    throw httpError('ROLE_INSUFFICIENT', 'Only admins and owners of the organization can do this');
  return member;
}

export async function mustOwnOrg(db: Executor, actor: Actor, orgId: string): Promise<MemberRow> {
  const member = await mustBeOrgMember(db, actor, orgId);
  if (member.owner !== 1) throw httpError('ROLE_INSUFFICIENT', 'Only the owner of the organization can do this');
  return member;
}

async function findTeam(db: Executor, teamId: string) {
  const team = await db.selectFrom('teams').selectAll().where('id', '=', teamId).executeTakeFirst();
  if (!team) throw httpError('TEAM_NOT_FOUND', 'Team not found');
  return team;
}

/** A team any member of its organization may see; 404 to everybody else. */
export async function mustSeeTeam(db: Executor, actor: Actor, teamId: string) {
  const team = await findTeam(db, teamId);
  const member = await membership(db, userOf(actor), team.org_id);
  if (!member) throw httpError('TEAM_NOT_FOUND', 'Team not found');
  return { team, member };
}

export async function mustAdminTeam(db: Executor, actor: Actor, teamId: string) {
  const { team, member } = await mustSeeTeam(db, actor, teamId);
  if (!isAdminOrOwner(member))
    throw httpError('ROLE_INSUFFICIENT', 'Only admins and owners of the organization can do this');
  return { team, member };
}

const siteById = reusableLookup((db, siteId: string) => db.selectFrom('sites').selectAll().where('id', '=', siteId));

async function findSite(db: Executor, siteId: string) {
  const site = await siteById(db, siteId);
  if (!site) throw httpError('SITE_NOT_FOUND', 'Site not found');
  return site;
}

/** A site any member of its organization may see; 404 to everybody else. */
export async function mustSeeSite(db: Executor, actor: Actor, siteId: string) {
  const site = await findSite(db, siteId);
  const member = await membership(db, userOf(actor), site.org_id);
  if (!member) throw httpError('SITE_NOT_FOUND', 'Site not found');
  return { site, member };
}

async function isTeamMember(db: Executor, teamId: string, memberId: string) {
  const row = await db
    .selectFrom('team_members')
    .select('member_id')
    .where('team_id', '=', teamId)
    .where('member_id', '=', memberId)
    .executeTakeFirst();
  return row !== undefined;
}

/** design.md 'Access': admins and owners, and members of the site's team, manage a site. */
export async function mustManageSite(db: Executor, actor: Actor, siteId: string) {
  const { site, member } = await mustSeeSite(db, actor, siteId);
  if (!isAdminOrOwner(member) && !(await isTeamMember(db, site.team_id, member.id))) {
    throw httpError('ROLE_INSUFFICIENT', "Only admins, owners and members of the site's team can do this");
  }
  return { site, member };
}

export async function mustAdminSite(db: Executor, actor: Actor, siteId: string) {
  const { site, member } = await mustSeeSite(db, actor, siteId);
  if (!isAdminOrOwner(member))
    throw httpError('ROLE_INSUFFICIENT', 'Only admins and owners of the organization can do this');
  return { site, member };
}

/** A site token's own site; any other is refused. */
async function siteOfToken(db: Executor, actor: Actor & { kind: 'siteToken' }, siteId: string) {
  if (actor.siteId !== siteId) throw httpError('TOKEN_OTHER_SITE', 'This token belongs to another site');
  return findSite(db, siteId);
}

/** Uploads: a site token of this very site, or a person (session or API token) who manages the site. */
export async function mustUploadToSite(db: Executor, actor: Actor, siteId: string) {
  if (actor.kind === 'siteToken') return siteOfToken(db, actor, siteId);
  return (await mustManageSite(db, actor, siteId)).site;
}

/** What a CI does besides uploading (list, roll back, delete a preview): its site token, or someone who may see the site. */
export async function mustSeeSiteOrItsToken(db: Executor, actor: Actor, siteId: string) {
  if (actor.kind === 'siteToken') return siteOfToken(db, actor, siteId);
  return (await mustSeeSite(db, actor, siteId)).site;
}

/** The person acting, or null for a site token (whose events name no one). */
export function personOf(actor: Actor): string | null {
  return actor.kind === 'siteToken' ? null : userOf(actor);
}
