import { infiniteQueryOptions, type QueryClient } from '@tanstack/react-query';
import { api, DEFAULT_PAGE_SIZE, type Release } from '@wharf/contract';
import { call, keyOf } from '../../lib/api.ts';
import { nextPage } from '../../lib/paging.ts';

/** The releases of a site, newest first, a page at a time; `search` filters by name when not empty. */
export function releasesQuery(siteId: string, search = '') {
  const params = { siteId };
  return infiniteQueryOptions({
    queryKey: keyOf(api.listReleases, { params, query: { search, size: DEFAULT_PAGE_SIZE } }),
    queryFn: ({ pageParam }) =>
      call(api.listReleases, {
        params,
        query: { page: pageParam, size: DEFAULT_PAGE_SIZE, search: search || undefined },
      }),
    initialPageParam: 0,
    getNextPageParam: nextPage,
  });
}

/** spec.md §4: a release uploaded while the list shows goes on top of it, unless a search is active. */
export function prependRelease(client: QueryClient, siteId: string, release: Release) {
  client.setQueryData(releasesQuery(siteId).queryKey, (data) => {
    const [first, ...rest] = data?.pages ?? [];
    if (!data || !first || data.pages.some((page) => page.items.some((item) => item._id === release._id))) return data;
    const count = first.count + 1;
    return {
      ...data,
      pages: [{ items: [release, ...first.items], count }, ...rest.map((page) => ({ ...page, count }))],
    };
  });
}
