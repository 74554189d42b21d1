import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '@wharf/contract';
import { apiQuery, call, keyOf } from '../../../lib/api.ts';

export const FILES_PAGE_SIZE = 50;

export const releaseQuery = (releaseId: string) => apiQuery(api.getRelease, { params: { releaseId } });

/** A page of a release's files by path; `search` keeps the paths holding it. */
export function releaseFilesQuery(releaseId: string, page: number, search: string) {
  const input = { params: { releaseId }, query: { page, size: FILES_PAGE_SIZE, search: search || undefined } };
  return queryOptions({
    queryKey: keyOf(api.listReleaseFiles, input),
    queryFn: () => call(api.listReleaseFiles, input),
    placeholderData: keepPreviousData,
  });
}
