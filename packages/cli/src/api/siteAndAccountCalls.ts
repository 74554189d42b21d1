import { api, type Route, type RouteResponse } from '@wharf/contract';
import { UnexpectedAnswer } from './answerChecks.ts';
import { apiClient, type Connection } from './wharfApi.ts';

/** Reads an answer by the route's own schema from the contract. */
const byContract =
  <R extends Route>(route: R) =>
  (value: unknown): RouteResponse<R> => {
    const parsed = route.response.safeParse(value);
    if (!parsed.success) throw new UnexpectedAnswer(parsed.error.issues[0]?.message ?? 'unreadable');
    return parsed.data as RouteResponse<R>;
  };

/**
 * The calls of the commands that look after branches, releases and the login. They run seldom and
 * read many shapes, so their answers are checked by the contract's schemas, zod and all.
 */
export function siteAndAccountCalls(connection: Connection) {
  const { send } = apiClient(connection);
  const json = (value: unknown) => () => ({ content: JSON.stringify(value), contentType: 'application/json' });
  const call = <R extends Route>(route: R, params: Record<string, string> = {}, body?: unknown) =>
    send({ route, params, read: byContract(route), body: body === undefined ? undefined : json(body) });
  return {
    listBranches: (siteId: string) => call(api.listBranches, { siteId }),
    deleteBranch: (siteId: string, branchId: string) => call(api.deleteBranch, { siteId, branchId }),
    setBranchRelease: (siteId: string, branchId: string, releaseId: string) =>
      call(api.setBranchRelease, { siteId, branchId }, { release: releaseId }),
    publishRelease: (releaseId: string, branch: string | undefined) =>
      call(api.publishRelease, { releaseId }, branch === undefined ? {} : { branch }),
    listReleases: (siteId: string, query: { page: number; size: number; search?: string }) =>
      send({ route: api.listReleases, params: { siteId }, read: byContract(api.listReleases), query }),
    startCliLogin: (machine: string) => call(api.startCliLogin, {}, { machine }),
    // One Idempotency-Key on every try of a poll: the try after an answer lost on the way gets the token again.
    claimCliLogin: (cliLoginId: string, secret: string) =>
      send({
        route: api.claimCliLogin,
        params: { cliLoginId },
        read: byContract(api.claimCliLogin),
        body: json({ secret }),
        idempotent: true,
      }),
    getUser: () => call(api.getUser),
    getApiToken: (apiTokenId: string) => call(api.getApiToken, { apiTokenId }),
    deleteApiToken: (apiTokenId: string) => call(api.deleteApiToken, { apiTokenId }),
  };
}

export type SiteAndAccountCalls = ReturnType<typeof siteAndAccountCalls>;
