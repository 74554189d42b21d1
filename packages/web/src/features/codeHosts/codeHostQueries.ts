import { useQuery } from '@tanstack/react-query';
import { api, type CodeHost } from '@wharf/contract';
import { apiQuery } from '../../lib/api.ts';

/** Where the console's "Allow access" form posts: the code host's flow that asks for repository scopes. */
export const repositoryAccessUrl = (provider: CodeHost) => `/auth/${encodeURIComponent(provider)}/repositories`;

/** The code hosts this installation signs in with, and what the user's account at each allows. */
export function useCodeHostAccounts() {
  return useQuery(apiQuery(api.listCodeHostAccounts));
}

/** The repositories of the user's account at `provider`, once it granted access (not fetched before). */
export function useCodeHostRepositories(provider: CodeHost, granted: boolean) {
  return useQuery({
    ...apiQuery(api.listCodeHostRepositories, { params: { provider } }),
    enabled: granted,
    // A list of hundreds is read page by page at the host: kept a few minutes, not refetched on focus.
    staleTime: 5 * 60_000,
    refetchOnWindowFocus: false,
    retry: false,
  });
}
