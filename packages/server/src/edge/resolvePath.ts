import type { Manifest, ServedFile } from './manifests.ts';

export type Resolution =
  | { kind: 'file'; file: ServedFile; status: 200 | 404 }
  | { kind: 'redirect'; status: 301 | 308; location: string }
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

/** A release path as a URL path: each segment encoded, so that a folder named `q?dir` or `a#b` stays one. */
const urlPathOf = (path: string) => path.split('/').map(encodeURIComponent).join('/');

/** How a site resolves paths besides its files: SPA fallback, pretty URLs. */
export interface PathOptions {
  spa: boolean;
  /** `/about.html` redirects to `/about` and `/dir/index.html` to `/dir/` when that serves the same file. */
  prettyUrls: boolean;
}

/** The file a path names exactly or by its index or `.html`, without fallbacks. */
export function namedFile(manifest: Manifest, path: string, trailingSlash: boolean): ServedFile | undefined {
  if (path !== '' && !trailingSlash) {
    const exact = manifest.get(path);
    if (exact) return exact;
    return manifest.get(`${path}/index.html`) ?? manifest.get(`${path}.html`);
  }
  return manifest.get(path === '' ? 'index.html' : `${path}/index.html`);
}

/** The pretty address of an `.html` file when that address serves the same file, else null. */
function prettyPathOf(manifest: Manifest, path: string): string | null {
  if (path === 'index.html') return '';
  if (path.endsWith('/index.html')) return `${path.slice(0, -'/index.html'.length)}/`;
  const bare = path.slice(0, -'.html'.length);
  if (bare === '' || manifest.has(bare) || manifest.has(`${bare}/index.html`)) return null;
  return bare;
}

/**
 * design.md 'Serving': the exact file, then `path/index.html` (redirecting `dir` to `dir/`), then
 * `path.html`; with pretty URLs an `.html` address redirects (308) to the one without it; in SPA
 * mode any other path gets `/index.html` (also `/users/john.doe`, as the platforms sites come
 * from do); otherwise the release's `/404.html` with status 404.
 */
export function resolveFile(
  manifest: Manifest,
  path: string,
  trailingSlash: boolean,
  options: PathOptions,
  query: string,
): Resolution {
  if (path !== '' && !trailingSlash) {
    const exact = manifest.get(path);
    if (exact) {
      const pretty = options.prettyUrls && path.endsWith('.html') ? prettyPathOf(manifest, path) : null;
      if (pretty !== null) return { kind: 'redirect', status: 308, location: `/${urlPathOf(pretty)}${query}` };
      return { kind: 'file', file: exact, status: 200 };
    }
  }
  const index = manifest.get(path === '' ? 'index.html' : `${path}/index.html`);
  if (index) {
    if (path !== '' && !trailingSlash)
      return { kind: 'redirect', status: 301, location: `/${urlPathOf(path)}/${query}` };
    return { kind: 'file', file: index, status: 200 };
  }
  const html = path !== '' && !trailingSlash ? manifest.get(`${path}.html`) : undefined;
  if (html) return { kind: 'file', file: html, status: 200 };
  if (options.spa) {
    const root = manifest.get('index.html');
    if (root) return { kind: 'file', file: root, status: 200 };
  }
  const notFoundPage = manifest.get('404.html');
  if (notFoundPage) return { kind: 'file', file: notFoundPage, status: 404 };
  return { kind: 'notFound' };
}
