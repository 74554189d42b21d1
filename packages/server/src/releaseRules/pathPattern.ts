import { normalRulePath } from './normalPath.ts';

/**
 * The path patterns both files share: literal segments, `:name` segments matching one segment, and
 * one `*` splat matching the rest (captured as `splat`). Paths are case-sensitive, as both peers
 * document, and a trailing slash does not matter: `/about` and `/about/` are the same path.
 * Patterns and the paths they match are both in normal form, so `/c%C3%A9line` matches `/céline`.
 */
export interface PathPattern {
  /** The pattern without its trailing slash: the key of a static pattern. */
  normal: string;
  /** Names captured, in the order of the regex's groups (`splat` for the `*`). */
  names: string[];
  /** null for a static pattern (no placeholder, no splat). */
  regex: RegExp | null;
  /** The first segment when it is literal, else null (a pattern opening with a placeholder or splat). */
  firstSegment: string | null;
}

export type Captures = Readonly<Record<string, string>>;

const placeholderSegment = /^:([A-Za-z_]\w*)$/;
const regexSpecials = /[.*+?^${}()|[\]\\]/g;

export function normalisePath(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

export function firstSegmentOf(normalPath: string): string {
  const end = normalPath.indexOf('/', 1);
  return end === -1 ? normalPath.slice(1) : normalPath.slice(1, end);
}

function escapeRegex(text: string): string {
  return text.replace(regexSpecials, '\\$&');
}

/** The compiled pattern, or the reason it is not one. It matches paths in normal form (normalPath.ts). */
export function compilePathPattern(path: string): PathPattern | string {
  const normal = normalisePath(normalRulePath(path));
  if (normal.split('*').length > 2) return 'has more than one splat (*)';
  const segments = normal.slice(1).split('/');
  const names: string[] = [];
  let source = '';
  for (const [index, segment] of segments.entries()) {
    const placeholder = placeholderSegment.exec(segment);
    if (placeholder) {
      const name = placeholder[1]!;
      if (names.includes(name)) return `uses the placeholder :${name} twice`;
      names.push(name);
      source += '/([^/]+)';
    } else if (segment === '*' && index === segments.length - 1) {
      // `/news/*` also answers `/news` itself, with an empty splat.
      names.push('splat');
      source += '(?:/(.*))?';
    } else if (segment.includes('*')) {
      const [before = '', after = ''] = segment.split('*');
      names.push('splat');
      source += `/${escapeRegex(before)}(.*)${escapeRegex(after)}`;
    } else {
      source += `/${escapeRegex(segment)}`;
    }
  }
  const first = segments[0] ?? '';
  const literalFirst = !placeholderSegment.test(first) && !first.includes('*');
  return {
    normal,
    names,
    regex: names.length > 0 ? new RegExp(`^${source}$`) : null,
    firstSegment: literalFirst ? first : null,
  };
}

export function isDynamicPath(path: string): boolean {
  const pattern = compilePathPattern(path);
  return typeof pattern !== 'string' && pattern.regex !== null;
}

const absolute = /^(https?):\/\/([^/]*)(\/.*)?$/i;

/** Splits `https://host/path` into its lowercase host and path; a path stays as it is with a null host. */
export function splitAbsolute(pattern: string): { host: string | null; path: string } | string {
  if (pattern.startsWith('/')) return { host: null, path: pattern };
  const parts = absolute.exec(pattern);
  if (!parts) return 'must start with / or http(s)://';
  const host = parts[2]!.toLowerCase();
  if (!/^[a-z0-9.-]+$/.test(host)) return `names no plain host (${host || 'empty'}): no port, placeholder or splat`;
  return { host, path: parts[3] ?? '/' };
}

/** The host of a request, lowercase and without its port, as patterns name it. */
export function requestHostName(host: string): string {
  const lower = host.toLowerCase();
  if (lower.startsWith('[')) return lower;
  const colon = lower.indexOf(':');
  return colon === -1 ? lower : lower.slice(0, colon);
}

const valuePlaceholder = /:([A-Za-z_]\w*)/g;

/** Placeholder names (`:name`) a `to` or a header value uses. */
export function placeholdersIn(text: string): string[] {
  return [...text.matchAll(valuePlaceholder)].map((found) => found[1]!);
}
