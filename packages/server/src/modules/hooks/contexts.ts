import type { EventName, HookContext } from '@wharf/contract';
import type { Actor } from '../../access/actor.ts';
import { mustAdminOrg, mustAdminTeam, mustManageSite, userOf } from '../../access/rules.ts';
import type { Executor } from '../../db/schema.ts';

/** Where a hook's own changes happened, for their events (a user's hook belongs to no organization). */
export interface HookOwnerScope {
  orgId?: string;
  teamId?: string;
  siteId?: string;
  userId?: string;
}

interface ContextRules {
  /** The path parameter that names the owner; the user's own hooks have none (the caller owns them). */
  param: 'orgId' | 'teamId' | 'siteId' | null;
  /** The events a change of one of these hooks records; none for the user's own (spec.md §3 names none). */
  events: { created: EventName; updated: EventName; deleted: EventName } | null;
  /**
   * Who may see and change the hooks of one owner, and that owner's id; hooks hold secrets, so
   * reading needs the same right.
   */
  authorize(
    db: Executor,
    actor: Actor,
    ownerId: string | undefined,
  ): Promise<{ ownerId: string; scope: HookOwnerScope }>;
}

export const hookContextRules: Record<HookContext, ContextRules> = {
  orgs: {
    param: 'orgId',
    events: { created: 'org_hook_created', updated: 'org_hook_updated', deleted: 'org_hook_deleted' },
    authorize: async (db, actor, orgId = '') => {
      await mustAdminOrg(db, actor, orgId);
      return { ownerId: orgId, scope: { orgId } };
    },
  },
  teams: {
    param: 'teamId',
    events: { created: 'team_hook_created', updated: 'team_hook_updated', deleted: 'team_hook_deleted' },
    authorize: async (db, actor, teamId = '') => {
      const { team } = await mustAdminTeam(db, actor, teamId);
      return { ownerId: team.id, scope: { orgId: team.org_id, teamId: team.id } };
    },
  },
  sites: {
    param: 'siteId',
    events: { created: 'site_hook_created', updated: 'site_hook_updated', deleted: 'site_hook_deleted' },
    authorize: async (db, actor, siteId = '') => {
      const { site } = await mustManageSite(db, actor, siteId);
      return { ownerId: site.id, scope: { orgId: site.org_id, teamId: site.team_id, siteId: site.id } };
    },
  },
  // The signed-in user's own hooks, for the user events (fanOut.ts: context 'users', owner the user).
  // Another user's hook is simply not found: every query is by the caller's own id.
  users: {
    param: null,
    events: null,
    authorize: async (_db, actor) => {
      const userId = userOf(actor);
      return { ownerId: userId, scope: { userId } };
    },
  },
};
