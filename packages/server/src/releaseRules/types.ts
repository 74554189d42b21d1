export type RuleFile = '_redirects' | '_headers';

export interface RuleProblem {
  file: RuleFile;
  line: number;
  message: string;
  severity: 'error' | 'warning';
}

export type RedirectStatus = 200 | 301 | 302 | 303 | 307 | 308 | 404;

export interface RedirectRule {
  line: number;
  /** null: any host; else the lowercase host of an absolute `from` (https://www.example.com/*). */
  host: string | null;
  /** The from path as written (leading slash), e.g. /blog/:year/:slug or /news/* */
  path: string;
  /** Query conditions: [parameter, placeholder name or literal value] (`/store id=:id /blog/:id 301`). */
  query: [string, string][];
  /** The to as written: a path, or an absolute URL; may hold :splat, :name and query placeholders. */
  to: string;
  status: RedirectStatus;
  force: boolean;
  /** status 200 to an absolute http(s) URL: a proxy. */
  proxy: boolean;
}

export interface HeaderBlock {
  line: number;
  /** null: any host; else the lowercase host of an absolute pattern (https://www.example.com/*). */
  host: string | null;
  path: string;
  set: [string, string][];
  remove: string[];
  /** Its `Basic-Auth` users, as stored: each password's hash, never the password. */
  basicAuth?: BasicAuthUser[];
}

export interface BasicAuthUser {
  user: string;
  /** scrypt, as @wharf/contract/passwords makes it. */
  hash: string;
}

/** A block as read from the file, its `Basic-Auth` passwords still in clear until they are hashed. */
export interface ParsedHeaderBlock extends Omit<HeaderBlock, 'basicAuth'> {
  credentials?: { user: string; password: string }[];
}

/** Who may see a path `Basic-Auth` protects: user name → password hash; `version` names this set. */
export interface BasicAuthGuard {
  version: string;
  users: ReadonlyMap<string, string>;
}

export interface RedirectMatch {
  rule: RedirectRule;
  /** to with placeholders filled (and, for a redirect without query of its own, the request's query kept). */
  target: string;
  status: number;
  force: boolean;
  proxy: boolean;
}

export interface RedirectMatcher {
  /**
   * The first rule in file order that matches; with onlyForced, the first forced one (a file
   * shadows unforced rules). `path` in normal form (normalRequestPath), `query` as sent, in ASCII;
   * `scheme`, the request's, lets a redirect to its own absolute URL be told apart from one to https.
   */
  match(
    host: string,
    path: string,
    query: string,
    options?: { onlyForced?: boolean; scheme?: string },
  ): RedirectMatch | null;
  size: number;
}

export interface HeaderMatcher {
  /**
   * Every block matching the path, combined in file order: a header set by several blocks gets its values
   * joined with ', '; `remove` lists the names `! Name` lines remove (apply `remove` first, then `set`);
   * `guard`, when a matching block has `Basic-Auth`, the users any of which may see the path.
   * `path` in normal form (normalRequestPath).
   */
  headersFor(host: string, path: string): { set: [string, string][]; remove: string[]; guard: BasicAuthGuard | null };
}
