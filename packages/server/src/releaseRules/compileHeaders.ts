import { patterns, reservedHeaderReason } from '@wharf/contract';
import { LruCache } from '../lib/lru.ts';
import { guardOf } from './basicAuth.ts';
import { compileHeaderValue } from './fillCaptures.ts';
import { type Captures, compilePathPattern, requestHostName } from './pathPattern.ts';
import { type IndexedPattern, PatternIndex } from './patternIndex.ts';
import type { BasicAuthUser, HeaderBlock, HeaderMatcher } from './types.ts';

interface CompiledBlock extends IndexedPattern {
  set: { name: string; fill: (captures: Captures) => string }[];
  remove: string[];
  basicAuth: BasicAuthUser[];
}

type Headers = ReturnType<HeaderMatcher['headersFor']>;

/**
 * What a stored block may set: rules stored before a name was reserved, or before values had to
 * be ASCII, are held to today's rules (a value Node cannot write would fail every answer), and
 * `Basic-Auth` is never sent (migration 021 made the users of releases stored before it).
 */
const settable = ([name, value]: readonly [string, string]) =>
  name.toLowerCase() !== 'basic-auth' && reservedHeaderReason(name) === null && patterns.headerValue.test(value);

/** Results kept per host and path: a site's hot paths are few, and combining blocks is the costly part. */
const cachedPaths = 2_000;

/**
 * Compiles header blocks once per release. Values may use the pattern's placeholders (`:name`,
 * `:splat`), filled per path, as Cloudflare documents, percent-encoded (fillCaptures.ts).
 */
export function compileHeaders(blocks: readonly HeaderBlock[]): HeaderMatcher {
  const compiled: CompiledBlock[] = [];
  for (const [index, block] of blocks.entries()) {
    const pattern = compilePathPattern(block.path);
    if (typeof pattern === 'string') continue;
    compiled.push({
      index,
      host: block.host,
      pattern,
      set: block.set
        .filter(settable)
        .map(([name, value]) => ({ name, fill: compileHeaderValue(value, pattern.names) })),
      remove: block.remove.filter((name) => reservedHeaderReason(name) === null),
      basicAuth: block.basicAuth ?? [],
    });
  }
  const index = new PatternIndex(compiled);
  const cache = new LruCache<string, Headers>(cachedPaths);
  return {
    headersFor(host, path) {
      const hostName = requestHostName(host);
      const key = `${hostName}\n${path}`;
      const cached = cache.get(key);
      if (cached) return cached;
      const result = combine(index, hostName, path);
      cache.set(key, result);
      return result;
    },
  };
}

/**
 * Blocks apply in file order: a value joins those earlier blocks set for the same name (names
 * compare without case), and `! Name` drops what earlier blocks set, so a narrower block can
 * take back a header a broader one gave.
 */
function combine(index: PatternIndex<CompiledBlock>, host: string, path: string): Headers {
  const set = new Map<string, { name: string; values: string[] }>();
  const remove = new Map<string, string>();
  const users: BasicAuthUser[] = [];
  index.visit(host, path, (block, captures) => {
    users.push(...block.basicAuth);
    for (const name of block.remove) {
      set.delete(name.toLowerCase());
      remove.set(name.toLowerCase(), name);
    }
    for (const header of block.set) {
      const lower = header.name.toLowerCase();
      const value = header.fill(captures);
      const existing = set.get(lower);
      if (existing) existing.values.push(value);
      else set.set(lower, { name: header.name, values: [value] });
    }
    return false;
  });
  // Frozen: the cache hands the same answer to every request for this path.
  return Object.freeze({
    set: [...set.values()].map(({ name, values }) => [name, values.join(', ')] as [string, string]),
    remove: [...remove.values()],
    guard: guardOf(users),
  });
}
