import type { RedirectMatch } from '../releaseRules/index.ts';

/** What the edge does for a `_redirects` rule that matched. */
export type RuleAction =
  | { kind: 'redirect'; status: number; location: string }
  | { kind: 'proxy'; url: URL }
  | { kind: 'rewrite'; path: string; status: 200 | 404 };

/**
 * A 3xx is a redirect to the filled target; a 200 to an absolute URL is a proxy (the request's
 * query goes along unless the target has its own); a 200 or 404 to a path serves that path's file
 * under the request's address, with that status.
 */
export function actionOf(hit: RedirectMatch, query: string): RuleAction {
  if (hit.proxy)
    return { kind: 'proxy', url: new URL(hit.target.includes('?') ? hit.target : `${hit.target}${query}`) };
  if (hit.status !== 200 && hit.status !== 404) return { kind: 'redirect', status: hit.status, location: hit.target };
  const queryStart = hit.target.indexOf('?');
  return {
    kind: 'rewrite',
    path: queryStart === -1 ? hit.target : hit.target.slice(0, queryStart),
    status: hit.status,
  };
}
