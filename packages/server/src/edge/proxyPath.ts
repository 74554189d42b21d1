/** What a path segment may hold as it is: RFC 3986 `pchar`, with the `%` of an escape. */
const NOT_PCHAR = /[^A-Za-z0-9\-._~!$&'()*+,;=:@%]/g;

/** The raw request line carries bytes as latin1 characters: each one is escaped as the byte it is. */
const escapeByte = (char: string) => `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;

function decoded(segment: string) {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The raw segments of a path, still percent-encoded, with `.` and `..` resolved (also when written
 * `%2e`) and empty ones dropped, exactly as the edge resolves them to match the rules; `%2F` stays
 * inside its segment.
 */
function resolvedSegments(rawPath: string): string[] {
  const segments: string[] = [];
  for (const segment of rawPath.split('/')) {
    const name = decoded(segment);
    if (name === '' || name === '.') continue;
    if (name === '..') segments.pop();
    else segments.push(segment);
  }
  return segments;
}

/**
 * The path a reverse-proxy rule forwards: the client's own encoding (`a%3Fb` stays one segment
 * and never becomes a query, `%23` never a fragment, `%2F` never a separator), less
 * `stripPathPrefix` when the path starts with its whole segments (`/api` strips from `/api/x`,
 * never from `/apiary`). Characters a path may not hold unescaped are escaped.
 */
export function forwardedPath(rawPath: string, stripPathPrefix: string | undefined): string {
  const segments = resolvedSegments(rawPath);
  const prefix = (stripPathPrefix ?? '').split('/').filter(Boolean).map(decoded);
  const strips = prefix.length > 0 && prefix.every((name, index) => decoded(segments[index] ?? '') === name);
  const rest = strips ? segments.slice(prefix.length) : segments;
  const trailingSlash = rawPath.endsWith('/') && rest.length > 0;
  return `/${rest.map((segment) => segment.replace(NOT_PCHAR, escapeByte)).join('/')}${trailingSlash ? '/' : ''}`;
}
