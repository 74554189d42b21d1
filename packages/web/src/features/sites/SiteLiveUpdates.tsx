import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { api, type Release, type Route } from '@wharf/contract';
import { useRealtimeEvents, useRealtimeRoom } from '../realtime/RealtimeProvider.tsx';
import { prependRelease } from '../releases/releasesQuery.ts';

/** What each kind of site event makes stale: the answers of these routes are fetched again. */
const staleRoutes: [RegExp, Route[]][] = [
  [/^site_(updated|logo_|password_|deleted)/, [api.getSite, api.listTeamSites]],
  [/^site_branch_/, [api.listBranches, api.getBranch, api.getSite, api.listReleases, api.getBranchRedirects]],
  // An upload adds the forms its .wharf.yml declares and its HTML marks.
  [/^site_release_/, [api.listBranches, api.getBranch, api.getSite, api.getRelease, api.listSiteForms]],
  [/^site_release_(renamed|deleted)/, [api.listReleases]],
  // The header's last deploy, and the failed deploys beside the releases.
  [/^site_deploy_failed$/, [api.getSite, api.listFailedDeploys]],
  [/^site_token_/, [api.listSiteTokens]],
  [/^site_build_(queued|started|succeeded|failed|cancelled)$/, [api.listBuilds, api.getBuild]],
  [/^site_build_hook_/, [api.listBuildHooks]],
  [/^site_build_variable_/, [api.listBuildVariables]],
  [/^site_repository_/, [api.getSiteRepository]],
  [/^site_hook_/, [api.siteHookList, api.siteHookGet]],
  [/^form_submitted$/, [api.listSubmissions]],
];

function refresh(client: QueryClient, name: string) {
  for (const [pattern, routes] of staleRoutes) {
    if (!pattern.test(name)) continue;
    for (const route of routes) void client.invalidateQueries({ queryKey: [route.path] });
  }
}

/**
 * spec.md §4 'Real-time': while a site is shown, the console is in its room; a new release is
 * prepended to the unfiltered list, and everything else others change is fetched again.
 */
export function SiteLiveUpdates({ siteId }: { siteId: string }) {
  const client = useQueryClient();
  useRealtimeRoom('site', siteId);
  useRealtimeEvents((message) => {
    if (message.siteId !== siteId) return;
    if (message.name === 'site_release_created' && message.entity)
      prependRelease(client, siteId, message.entity as Release);
    refresh(client, message.name);
  });
  return null;
}
