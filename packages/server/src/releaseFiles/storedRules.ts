import type { HeaderBlock, RedirectRule } from '../releaseRules/index.ts';

/** The rules a release brings, as stored with it: parsed once at upload, compiled by each edge. */
export interface StoredRules {
  redirects: RedirectRule[];
  headers: HeaderBlock[];
}
