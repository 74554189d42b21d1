import type { EventName, HookContext } from '@wharf/contract';
import type { Actor } from '../../access/actor.ts';
import { mustAdminOrg, mustAdminTeam, mustManageSite } from '../../access/rules.ts';
import type { Executor } from '../../db/schema.ts';

export interface HookOwnerScope {
  orgId: string;
  teamId?: string;
  siteId?: string;
}

interface ContextRules {
  param: 'orgId' | 'teamId' | 'siteId';
  events: { created: EventName; updated: EventName; deleted: EventName };
  /** Who may see and change the hooks of one owner; hooks hold secrets, so reading needs the same right. */
  authorize(db: Executor, actor: Actor, ownerId: string): Promise<HookOwnerScope>;
}

export const hookContextRules: Record<HookContext, ContextRules> = {
  orgs: {
    param: 'orgId',
    events: { created: 'org_hook_created', updated: 'org_hook_updated', deleted: 'org_hook_deleted' },
    authorize: async (db, actor, orgId) => {
      await mustAdminOrg(db, actor, orgId);
      return { orgId };
    },
  },
  teams: {
    param: 'teamId',
    events: { created: 'team_hook_created', updated: 'team_hook_updated', deleted: 'team_hook_deleted' },
    authorize: async (db, actor, teamId) => {
      const { team } = await mustAdminTeam(db, actor, teamId);
      return { orgId: team.org_id, teamId: team.id };
    },
  },
  sites: {
    param: 'siteId',
    events: { created: 'site_hook_created', updated: 'site_hook_updated', deleted: 'site_hook_deleted' },
    authorize: async (db, actor, siteId) => {
      const { site } = await mustManageSite(db, actor, siteId);
      return { orgId: site.org_id, teamId: site.team_id, siteId: site.id };
    },
  },
};
