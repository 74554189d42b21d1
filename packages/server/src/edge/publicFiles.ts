import { RELEASE_CONFIG_FILE } from '../releaseFiles/configFile.ts';

/**
 * The release's own configuration at its root, read by Wharf and never served: `.wharf.yml` names
 * the forms' mail recipients; `_redirects` and `_headers` hold Netlify-style rules.
 */
const RELEASE_CONFIG_FILES = new Set([RELEASE_CONFIG_FILE, '_redirects', '_headers']);
/** Where ACME challenges, security.txt, app links and the like must be found. */
const WELL_KNOWN = '.well-known/';
const DOT_SEGMENT = /(?:^|\/)\./;

/**
 * Whether the edge serves a release path. Never the release's configuration, and never a dotfile
 * or anything in a dot-folder (`.git/`, `.env`, `.DS_Store` are uploaded by mistake far more often
 * than on purpose), except what is under `.well-known/`.
 */
export function isPublicPath(path: string) {
  if (RELEASE_CONFIG_FILES.has(path)) return false;
  return !DOT_SEGMENT.test(path.startsWith(WELL_KNOWN) ? path.slice(WELL_KNOWN.length) : path);
}
