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
 * the answer), then the release's `_headers`, then the console's headers for every path, then the
 * console's headers for matching paths (site's, then branch's). The console comes last so that an
 * operator can always override what a release says.
 *
 * A branch with neither rules nor path headers gets its one shared list, as before; otherwise the
 * list is made once per path and kept, so the file answers prepared for it are reused.
 */
export class AnswerHeaders {
  private readonly cache = new LruCache<string, Cached>(CACHED_PATHS);

  /** `host`: the request's host name, lowercase and without port; `path`: decoded, with its leading slash. */
  headersFor(
    branch: BranchEntry,
    rules: CompiledRules | undefined,
    host: string,
    path: string,
  ): readonly AnswerHeader[] {
    if (!rules?.headers && !branch.scopedHeaders) return branch.headers;
    const key = `${branch.id}\n${host}\n${path}`;
    const cached = this.cache.get(key);
    if (cached && cached.branch === branch && cached.rules === rules) return cached.headers;
    const headers = combine(branch, rules, host, path);
    this.cache.set(key, { branch, rules, headers });
    return headers;
  }
}

function combine(branch: BranchEntry, rules: CompiledRules | undefined, host: string, path: string) {
  const combined = new Map<string, AnswerHeader>();
  if (rules?.headers) {
    const fromRelease = rules.headers.headersFor(host, path);
    for (const name of fromRelease.remove) combined.set(name.toLowerCase(), [name, null]);
    for (const [name, value] of fromRelease.set) combined.set(name.toLowerCase(), [name, value]);
  }
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
