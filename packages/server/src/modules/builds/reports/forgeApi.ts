import type { ReportTarget } from './target.ts';

/**
 * GitLab answers 400 to a status it already has ("Cannot transition status via :run from
 * :running"): a report sent again after a lost answer has been made all the same.
 */
export const alreadyReported = (target: ReportTarget, status: number, body: unknown) =>
  target.forge === 'gitlab' && status === 400 && JSON.stringify(body ?? '').includes('Cannot transition status');

/** The headers of every call: the token as a bearer (all three take it so), and GitHub's media type. */
export function forgeHeaders(target: ReportTarget, token: string): Record<string, string> {
  return {
    authorization: `Bearer ${token}`,
    'user-agent': 'Wharf',
    ...(target.forge === 'github'
      ? { accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28' }
      : {}),
  };
}
