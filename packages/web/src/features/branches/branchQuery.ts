import { api, type RouteResponse } from '@wharf/contract';
import { apiQuery } from '../../lib/api.ts';

/** A branch with its headers and the release it serves. */
export type BranchDetail = RouteResponse<typeof api.getBranch>;

export const branchQuery = (siteId: string, branchId: string) =>
  apiQuery(api.getBranch, { params: { siteId, branchId } });
