import type { ServerResponse } from 'node:http';
import { LruCache } from '../lib/lru.ts';
import type { CompiledRules } from './manifests.ts';
import type { BranchEntry } from './routingTable.ts';

/** [name, value] sets a header; [name, null] removes one of the edge's own (a `! Name` of `_headers`). */
export type AnswerHeader = readonly [string, string | null];

interface Cached {
  branch: BranchEntry;
  rules: CompiledRules | undefined;
  headers: readonly AnswerHeader[];
}

const CACHED_PATHS = 20_000;

/**
 * The headers of a site's answer for a path, in the order they win: the edge's defaults (set by
 * the answer), then the release's `_headers`, then HSTS over TLS, then the console's headers for
 * every path, then the console's headers for matching paths (site's, then branch's). The console
 * comes last so that an operator can always override what a release says.
 *
 * A branch with neither rules nor path headers gets its one shared list (one more with HSTS), as
 * before; otherwise the list is made once per path and kept. Either way the same request gets the
 * same list, so the file answers prepared for it are reused.
 */
export class AnswerHeaders {
  private readonly cache = new LruCache<string, Cached>(CACHED_PATHS);
  private readonly withHsts = new WeakMap<readonly AnswerHeader[], readonly AnswerHeader[]>();

  /**
   * `host`: the request's host name, lowercase and without port; `path`: decoded, with its leading
   * slash; `hsts`: the `Strict-Transport-Security` of an answer over TLS, or null.
   */
  headersFor(
    branch: BranchEntry,
    rules: CompiledRules | undefined,
    host: string,
    path: string,
    hsts: string | null,
  ): readonly AnswerHeader[] {
    if (!rules?.headers && !branch.scopedHeaders)
      return hsts ? this.sharedWithHsts(branch.headers, hsts) : branch.headers;
    const key = `${branch.id}\n${host}\n${path}\n${hsts ?? ''}`;
    const cached = this.cache.get(key);
    if (cached && cached.branch === branch && cached.rules === rules) return cached.headers;
    const headers = combine(branch, rules, host, path, hsts);
    this.cache.set(key, { branch, rules, headers });
    return headers;
  }

  private sharedWithHsts(headers: readonly AnswerHeader[], hsts: string) {
    let list = this.withHsts.get(headers);
    if (!list) {
      list = [['strict-transport-security', hsts], ...headers];
      this.withHsts.set(headers, list);
    }
    return list;
  }
}

function combine(
  branch: BranchEntry,
  rules: CompiledRules | undefined,
  host: string,
  path: string,
  hsts: string | null,
) {
  const combined = new Map<string, AnswerHeader>();
  if (rules?.headers) {
    const fromRelease = rules.headers.headersFor(host, path);
    for (const name of fromRelease.remove) combined.set(name.toLowerCase(), [name, null]);
    for (const [name, value] of fromRelease.set) combined.set(name.toLowerCase(), [name, value]);
  }
  // The installation's, over what a release says; the console may still set another.
  if (hsts) combined.set('strict-transport-security', ['strict-transport-security', hsts]);
  for (const [name, value] of branch.headers) combined.set(name.toLowerCase(), [name, value]);
  branch.scopedHeaders?.visit(host, path, (header) => {
    combined.set(header.name.toLowerCase(), [header.name, header.value]);
    return false;
  });
  return [...combined.values()];
}

/** Puts the headers on an answer the edge writes itself (a page, a redirect, a proxied answer). */
export function applyAnswerHeaders(res: ServerResponse, headers: readonly AnswerHeader[]) {
  for (const [name, value] of headers) {
    if (value === null) res.removeHeader(name);
    else res.setHeader(name, value);
  }
}
