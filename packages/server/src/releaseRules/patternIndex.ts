import { type Captures, firstSegmentOf, normalisePath, type PathPattern } from './pathPattern.ts';

export interface IndexedPattern {
  /** Position in the file: of several hits, the lowest comes first. */
  index: number;
  host: string | null;
  pattern: PathPattern;
}

const none: readonly never[] = [];
const noCaptures: Captures = Object.freeze({});

/**
 * Finds the patterns a path matches without scanning them all: static patterns sit in a map keyed
 * by their path; dynamic ones in buckets keyed by their first literal segment, plus one bucket for
 * those opening with a placeholder or splat. A lookup costs one map hit and the regexes of two
 * small buckets, merged back into file order.
 */
export class PatternIndex<T extends IndexedPattern> {
  private readonly statics = new Map<string, T[]>();
  private readonly buckets = new Map<string, T[]>();
  private readonly opening: T[] = [];

  constructor(entries: readonly T[]) {
    for (const entry of entries) {
      const { pattern } = entry;
      if (!pattern.regex) push(this.statics, pattern.normal, entry);
      else if (pattern.firstSegment === null) this.opening.push(entry);
      else push(this.buckets, pattern.firstSegment, entry);
    }
  }

  /** Calls visit for each matching entry in file order until it returns true. `host` is lowercase, without port. */
  visit(host: string, path: string, visit: (entry: T, captures: Captures) => boolean): void {
    const normal = normalisePath(path);
    const statics = this.statics.get(normal) ?? none;
    const bucket = this.buckets.get(firstSegmentOf(normal)) ?? none;
    const opening = this.opening;
    let s = 0;
    let b = 0;
    let o = 0;
    while (s < statics.length || b < bucket.length || o < opening.length) {
      const atStatic = statics[s]?.index ?? Number.POSITIVE_INFINITY;
      const atBucket = bucket[b]?.index ?? Number.POSITIVE_INFINITY;
      const atOpening = opening[o]?.index ?? Number.POSITIVE_INFINITY;
      let entry: T;
      if (atStatic < atBucket && atStatic < atOpening) entry = statics[s++]!;
      else if (atBucket < atOpening) entry = bucket[b++]!;
      else entry = opening[o++]!;
      if (entry.host !== null && entry.host !== host) continue;
      const captures = captureAll(entry.pattern, normal);
      if (captures && visit(entry, captures)) return;
    }
  }
}

function captureAll(pattern: PathPattern, normal: string): Captures | null {
  if (!pattern.regex) return noCaptures;
  const found = pattern.regex.exec(normal);
  if (!found) return null;
  const captures: Record<string, string> = {};
  pattern.names.forEach((name, i) => {
    captures[name] = found[i + 1] ?? '';
  });
  return captures;
}

function push<T>(map: Map<string, T[]>, key: string, entry: T) {
  const list = map.get(key);
  if (list) list.push(entry);
  else map.set(key, [entry]);
}
