import type { Manifest, ServedFile } from './manifests.ts';

export type Resolution =
  | { kind: 'file'; file: ServedFile; status: 200 | 404 }
  | { kind: 'redirect'; location: string }
  | { kind: 'notFound' };

/**
 * A path that is already normal: segments of unreserved characters (no `%` to decode), none empty,
 * none starting with a dot (so no `.` or `..`), and maybe a trailing slash. Most requests are.
 */
const PLAIN_PATH = /^(?:\/[\w~-][\w.~-]*)*\/?$/;

/** What normalisePath makes of a plain path, without decoding or splitting it. */
function plainPath(rawPath: string) {
  const trailingSlash = rawPath.length > 1 && rawPath.endsWith('/');
  return { path: rawPath.slice(1, trailingSlash ? -1 : undefined), trailingSlash };
}

/**
 * The request path as a release path: percent-decoded once, `.` and `..` resolved (never above
 * the root), duplicate slashes dropped. Null for paths that cannot be decoded or hold a NUL.
 */
export function normalisePath(rawPath: string): { path: string; trailingSlash: boolean } | null {
  return PLAIN_PATH.test(rawPath) ? plainPath(rawPath) : decodeAndNormalise(rawPath);
}

/** normalisePath for any path: what a plain path would give too (resolvePath.test.ts checks it). */
export function decodeAndNormalise(rawPath: string): { path: string; trailingSlash: boolean } | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const segments: string[] = [];
  for (const segment of decoded.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return { path: segments.join('/'), trailingSlash: decoded.endsWith('/') && segments.length > 0 };
}

const hasExtension = (path: string) => /\.[^/]+$/.test(path);

/** A release path as a URL path: each segment encoded, so that a folder named `q?dir` or `a#b` stays one. */
const urlPathOf = (path: string) => path.split('/').map(encodeURIComponent).join('/');

/**
 * design.md 'Serving': the exact file, then `path/index.html` (redirecting `dir` to `dir/`), then
 * `path.html`; in SPA mode an unknown path without an extension gets `/index.html`; otherwise the
 * release's `/404.html` with status 404.
 */
export function resolveFile(
  manifest: Manifest,
  path: string,
  trailingSlash: boolean,
  spa: boolean,
  query: string,
): Resolution {
  if (path !== '' && !trailingSlash) {
    const exact = manifest.get(path);
    if (exact) return { kind: 'file', file: exact, status: 200 };
  }
  const index = manifest.get(path === '' ? 'index.html' : `${path}/index.html`);
  if (index) {
    if (path !== '' && !trailingSlash) return { kind: 'redirect', location: `/${urlPathOf(path)}/${query}` };
    return { kind: 'file', file: index, status: 200 };
  }
  const html = path !== '' && !trailingSlash ? manifest.get(`${path}.html`) : undefined;
  if (html) return { kind: 'file', file: html, status: 200 };
  if (spa && !hasExtension(path)) {
    const root = manifest.get('index.html');
    if (root) return { kind: 'file', file: root, status: 200 };
  }
  const notFoundPage = manifest.get('404.html');
  if (notFoundPage) return { kind: 'file', file: notFoundPage, status: 404 };
  return { kind: 'notFound' };
}
