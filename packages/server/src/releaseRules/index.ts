/**
 * `_redirects` and `_headers` from a release, in the grammar Netlify and Cloudflare Pages document.
 * Parse once at upload (problems carry file, line and reason), compile once per release, then per
 * request:
 * - redirects: when a file exists at the path, `match(…, { onlyForced: true })` (a file shadows
 *   unforced rules); otherwise `match(…)`. 3xx → redirect to `target`; 200 → serve `target` from
 *   the release, or proxy it when `proxy`; 404 → serve `target` with status 404.
 * - both take the path in normal form (`normalRequestPath`), the one form rules are matched in.
 * - headers: `headersFor(host, path)`: drop the `remove` names, then set the `set` pairs; a
 *   `guard` asks for one of its users first (`Basic-Auth`).
 */
export { withHashedPasswords } from './basicAuth.ts';
export { compileHeaders } from './compileHeaders.ts';
export { compileRedirects } from './compileRedirects.ts';
export { normalRequestPath } from './normalPath.ts';
export { parseHeaders } from './parseHeaders.ts';
export { parseRedirects } from './parseRedirects.ts';
export type {
  HeaderBlock,
  HeaderMatcher,
  RedirectMatch,
  RedirectMatcher,
  RedirectRule,
  RuleFile,
  RuleProblem,
} from './types.ts';
