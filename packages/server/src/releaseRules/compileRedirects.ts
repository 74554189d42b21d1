import { compileTarget } from './fillCaptures.ts';
import { normalRequestPath } from './normalPath.ts';
import { type Captures, compilePathPattern, normalisePath, requestHostName } from './pathPattern.ts';
import { type IndexedPattern, PatternIndex } from './patternIndex.ts';
import type { RedirectMatch, RedirectMatcher, RedirectRule } from './types.ts';

interface CompiledRule extends IndexedPattern {
  rule: RedirectRule;
  /** The target for these captures; null when a capture cannot go where the to puts it. */
  fill: (captures: Captures) => string | null;
  /** Query conditions split once: a placeholder captures the value, a literal must equal it. */
  conditions: { key: string; capture: string | null; value: string }[];
  keepsQuery: boolean;
  /** A redirect (3xx): it must never send a visitor to the address they asked for. */
  redirects: boolean;
}

/**
 * Compiles parsed rules once per release, so that a request costs a map lookup and a few regexes
 * rather than a scan of up to 2,100 rules.
 */
export function compileRedirects(rules: readonly RedirectRule[]): RedirectMatcher {
  const compiled: CompiledRule[] = [];
  for (const [index, rule] of rules.entries()) {
    const pattern = compilePathPattern(rule.path);
    // parseRedirects refuses invalid patterns; a hand-built rule with one simply never matches.
    if (typeof pattern === 'string') continue;
    const conditions = rule.query.map(([key, value]) => {
      const capture = /^:[A-Za-z_]\w*$/.test(value) ? value.slice(1) : null;
      return { key, capture, value };
    });
    const known = [...pattern.names, ...conditions.flatMap((condition) => condition.capture ?? [])];
    compiled.push({
      index,
      host: rule.host,
      pattern,
      rule,
      conditions,
      fill: compileTarget(rule.to, known),
      keepsQuery: keepsRequestQuery(rule),
      redirects: rule.status >= 301 && rule.status <= 308,
    });
  }
  const all = new PatternIndex(compiled);
  // A path with a file looks only at forced rules: most releases have few or none, so most such
  // requests cost nothing here.
  const forcedRules = compiled.filter((entry) => entry.rule.force);
  const forced = forcedRules.length > 0 ? new PatternIndex(forcedRules) : null;
  return {
    size: compiled.length,
    match(host, path, query, options) {
      const index = options?.onlyForced ? forced : all;
      if (!index) return null;
      const hostName = requestHostName(host);
      const rawQuery = query.startsWith('?') ? query.slice(1) : query;
      let params: URLSearchParams | undefined;
      let found: RedirectMatch | null = null;
      const here: RequestAddress = { host: hostName, path, query: rawQuery, scheme: options?.scheme };
      index.visit(hostName, path, (entry, pathCaptures) => {
        let captures = pathCaptures;
        if (entry.conditions.length > 0) {
          params ??= new URLSearchParams(rawQuery);
          const queryCaptures = matchConditions(entry.conditions, params);
          if (!queryCaptures) return false;
          captures = { ...pathCaptures, ...queryCaptures };
        }
        const filled = entry.fill(captures);
        if (filled === null) return false;
        const target = entry.keepsQuery && rawQuery !== '' ? withQuery(filled, rawQuery) : filled;
        // Netlify ignores a rule that would redirect to the very address asked for, rather than loop.
        if (entry.redirects && isRequestAddress(target, here)) return false;
        found = {
          rule: entry.rule,
          target,
          status: entry.rule.status,
          force: entry.rule.force,
          proxy: entry.rule.proxy,
        };
        return true;
      });
      return found;
    },
  };
}

function matchConditions(conditions: CompiledRule['conditions'], params: URLSearchParams): Captures | null {
  const captures: Record<string, string> = {};
  for (const condition of conditions) {
    const value = params.get(condition.key);
    if (value === null) return null;
    if (condition.capture === null) {
      if (value !== condition.value) return null;
    } else {
      captures[condition.capture] = encodeURIComponent(value);
    }
  }
  return captures;
}

/**
 * Netlify passes the request's query on to a redirect's or a proxy's target; a rule that picks
 * parameters with query conditions, or whose to has a query of its own, says exactly what it wants.
 */
function keepsRequestQuery(rule: RedirectRule): boolean {
  const passes = (rule.status >= 301 && rule.status <= 308) || rule.proxy;
  return passes && rule.query.length === 0 && !rule.to.includes('?');
}

function withQuery(target: string, query: string): string {
  const hash = target.indexOf('#');
  if (hash === -1) return `${target}?${query}`;
  return `${target.slice(0, hash)}?${query}${target.slice(hash)}`;
}

interface RequestAddress {
  host: string;
  path: string;
  query: string;
  scheme: string | undefined;
}

/**
 * Whether a redirect's target is the address asked for. A path is, with the same path and query
 * (`/a /a 301`, `/a /a/ 301` asked as `/a/`); an absolute URL is when it also names the request's
 * scheme and host (`http://example.com/* http://example.com/:splat 301!`), ports aside.
 */
function isRequestAddress(target: string, here: RequestAddress): boolean {
  if (target.startsWith('/')) return isSameAddress(target, here.path, here.query);
  if (here.scheme === undefined) return false;
  const url = new URL(target);
  if (url.protocol !== `${here.scheme}:` || url.hostname !== here.host) return false;
  return isSameAddress(`${url.pathname}${url.search}`, here.path, here.query);
}

/**
 * Whether a path target (with its query) is the request's path in normal form, a trailing slash
 * not counting, as in matching, with the same query.
 */
function isSameAddress(target: string, normalPath: string, rawQuery: string): boolean {
  const hash = target.indexOf('#');
  const address = hash === -1 ? target : target.slice(0, hash);
  const queryStart = address.indexOf('?');
  const query = queryStart === -1 ? '' : address.slice(queryStart + 1);
  if (query !== rawQuery) return false;
  const path = queryStart === -1 ? address : address.slice(0, queryStart);
  return normalisePath(normalRequestPath(path)) === normalisePath(normalPath);
}
