import { useQuery } from '@tanstack/react-query';
import { api, type Site } from '@wharf/contract';
import { apiQuery } from '../../lib/api.ts';
import { useCurrentOrg } from '../../lib/currentOrg.tsx';

/**
 * design.md 'Access': admins and owners, and members of the site's team, manage a site (branches,
 * releases, tokens, hooks, settings); everyone else in the organization sees its lists only. Undefined while unknown.
 */
export function useCanManageSite(site: Site | undefined): boolean | undefined {
  const { isAdminOrOwner, member } = useCurrentOrg();
  const teamMembers = useQuery({
    ...apiQuery(api.listTeamMembers, { params: { teamId: site?.teamId ?? '' } }),
    enabled: Boolean(site) && !isAdminOrOwner,
  });
  if (isAdminOrOwner) return true;
  // Not known yet: the team's members are still on their way.
  if (!teamMembers.data) return teamMembers.error ? false : undefined;
  return teamMembers.data.some((entry) => entry.memberId === member._id);
}
