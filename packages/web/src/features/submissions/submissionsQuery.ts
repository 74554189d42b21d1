import { infiniteQueryOptions } from '@tanstack/react-query';
import { api, DEFAULT_PAGE_SIZE } from '@wharf/contract';
import { call, keyOf } from '../../lib/api.ts';
import { nextPage } from '../../lib/paging.ts';

/** Which submissions a list shows: a site's or one branch's, one form's or all, the inbox or the spam. */
export interface SubmissionsView {
  siteId: string;
  branchId?: string;
  form?: string;
  spam: boolean;
}

/** The submissions of a view, newest first, a page at a time. */
export function submissionsQuery({ siteId, ...filter }: SubmissionsView) {
  const params = { siteId };
  return infiniteQueryOptions({
    queryKey: keyOf(api.listSubmissions, { params, query: { ...filter, size: DEFAULT_PAGE_SIZE } }),
    queryFn: ({ pageParam }) =>
      call(api.listSubmissions, { params, query: { ...filter, page: pageParam, size: DEFAULT_PAGE_SIZE } }),
    initialPageParam: 0,
    getNextPageParam: nextPage,
  });
}
