import { infiniteQueryOptions } from '@tanstack/react-query';
import { api, DEFAULT_PAGE_SIZE } from '@wharf/contract';
import { call, keyOf } from '../../lib/api.ts';
import { nextPage } from '../../lib/paging.ts';

/** The builds of a site, newest first, a page at a time. */
export function buildsQuery(siteId: string) {
  const params = { siteId };
  return infiniteQueryOptions({
    queryKey: keyOf(api.listBuilds, { params, query: { size: DEFAULT_PAGE_SIZE } }),
    queryFn: ({ pageParam }) => call(api.listBuilds, { params, query: { page: pageParam, size: DEFAULT_PAGE_SIZE } }),
    initialPageParam: 0,
    getNextPageParam: nextPage,
  });
}
