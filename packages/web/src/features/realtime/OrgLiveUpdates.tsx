import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { api, type RealtimeMessage, type Route } from '@wharf/contract';
import { useCurrentOrgState } from '../../lib/currentOrg.tsx';
import { useRealtimeEvents, useRealtimeRoom } from './RealtimeProvider.tsx';

/** What each kind of event makes stale: the answers of these routes are fetched again. */
const staleRoutes: [RegExp, Route[]][] = [
  [/^org_(updated|logo_)/, [api.getOrg, api.listOrgs]],
  [/^org_invite_/, [api.listInvites]],
  [/^org_member_/, [api.listMembers, api.getCurrentMember]],
  [/^team_(added|updated|deleted|logo_)/, [api.listTeams, api.getTeam]],
  [/^team_member_/, [api.listTeamMembers]],
  [/^site_(added|updated|deleted|logo_)/, [api.listTeamSites, api.listOrgSites, api.getSite]],
  // The home's sites show what each main branch serves and how the last deploy went.
  [/^site_(release_|branch_release_set|deploy_failed)/, [api.listOrgSites]],
];

export function refreshAfter(client: QueryClient, message: Pick<RealtimeMessage, 'name'>) {
  for (const [pattern, routes] of staleRoutes) {
    if (!pattern.test(message.name)) continue;
    for (const route of routes) void client.invalidateQueries({ queryKey: [route.path] });
  }
}

/**
 * spec.md §4: the console listens to the room of the current organization, so that teams and
 * sites others add or delete appear and disappear without a reload.
 */
export function OrgLiveUpdates() {
  const { current } = useCurrentOrgState();
  const client = useQueryClient();
  useRealtimeRoom('org', current?.org._id ?? null);
  useRealtimeEvents((message) => {
    if (message.orgId === current?.org._id) refreshAfter(client, message);
  });
  return null;
}
