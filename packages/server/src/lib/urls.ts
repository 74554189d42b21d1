import { createHash } from 'node:crypto';
import type { Config } from '../config/types.ts';

/** What joins a branch's slug to its site's name in a flat branch host: `{branch}--{site}`. */
export const FLAT_BRANCH_SEPARATOR = '--';

/** The longest label of a host name (RFC 1035): resolvers refuse a longer one. */
const DNS_LABEL_MAX = 63;
/** The characters of a slug's hash that end a shortened flat branch part. */
const SHORTENED_HASH_LENGTH = 6;
const SHORTENED_PART = new RegExp(`^(?:([a-z0-9-]*[a-z0-9])-)?[0-9a-f]{${SHORTENED_HASH_LENGTH}}$`);

/**
 * The part before `--` of a branch's flat host, `{part}--{site}`: the branch's slug when the label
 * fits in 63 characters, else the slug cut to fit and ended by 6 characters of its hash, so that
 * two long branch names that begin alike keep two addresses. (A site name leaves room for a part of
 * 8 characters or more, SITE_NAME_MAX; one saved before that limit keeps its over-long labels.)
 */
export function flatBranchPart(slug: string, siteName: string): string {
  const room = DNS_LABEL_MAX - FLAT_BRANCH_SEPARATOR.length - siteName.length;
  if (slug.length <= room || room < SHORTENED_HASH_LENGTH + 2) return slug;
  const hash = createHash('sha256').update(slug).digest('hex').slice(0, SHORTENED_HASH_LENGTH);
  const prefix = slug.slice(0, room - SHORTENED_HASH_LENGTH - 1).replace(/-+$/, '');
  return prefix ? `${prefix}-${hash}` : hash;
}

/**
 * What every branch whose flat part `part` may be begins with: null when `part` is not of a
 * shortened part's shape (then only the branch whose slug it is can have it).
 */
export function shortenedPartPrefix(part: string): string | null {
  const match = SHORTENED_PART.exec(part);
  return match ? (match[1] ?? '') : null;
}

/**
 * The URL a branch is served at: `{branch slug}.{site}.{sites host}` (or `{branch slug}--{site}.{sites
 * host}` with flat branch hosts), or `{site}.{sites host}` for the main branch (design.md 'Running').
 */
export function branchUrl(
  config: Pick<Config, 'sitesUrl' | 'branchHosts'>,
  siteName: string,
  branchSlug: string | null,
): string {
  const base = config.sitesUrl;
  const siteLabel =
    branchSlug === null
      ? siteName
      : config.branchHosts === 'flat'
        ? `${flatBranchPart(branchSlug, siteName)}${FLAT_BRANCH_SEPARATOR}${siteName}`
        : `${branchSlug}.${siteName}`;
  return `${base.protocol}//${siteLabel}.${base.host}/`;
}

/** What a branch's shown address depends on in its site: the name, and which branch is the main one. */
export interface BranchSite {
  name: string;
  main_branch_id: string;
}

/**
 * The address a branch is shown at: the site's own for its main branch, the one address the edge
 * serves it at (its `{slug}.{site}` form redirects there), else the branch's own.
 */
export function branchAddress(
  config: Pick<Config, 'sitesUrl' | 'branchHosts'>,
  site: BranchSite,
  branch: { id: string; slug: string },
): string {
  return branchUrl(config, site.name, branch.id === site.main_branch_id ? null : branch.slug);
}

/** A release's own label before `--` in its permanent address: 8 random characters of [0-9a-z]. */
export const RELEASE_SLUG_LENGTH = 8;
export const RELEASE_SLUG_PATTERN = /^[0-9a-z]{8}$/;
/** The longest site name whose release addresses, `{release slug}--{site}`, fit in one label. */
export const SITE_NAME_MAX = DNS_LABEL_MAX - RELEASE_SLUG_LENGTH - FLAT_BRANCH_SEPARATOR.length;

/**
 * The permanent address of a release, `{slug}--{site}.{sites host}`: one label under the sites
 * host (one wildcard certificate covers it), whatever the branch hosts, served for as long as the
 * release is kept and never following a branch.
 */
export function releaseUrl(config: Pick<Config, 'sitesUrl'>, siteName: string, slug: string): string {
  const base = config.sitesUrl;
  return `${base.protocol}//${slug}${FLAT_BRANCH_SEPARATOR}${siteName}.${base.host}/`;
}

/**
 * A branch name made safe for a host name label: `feature/login` → `feature-login`. Runs of other
 * characters (and of hyphens) become one hyphen, so a slug never holds `--`: flat branch hosts
 * rely on it.
 */
export function slugOf(name: string): string {
  const slug = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 50)
    .replace(/-+$/, '');
  return slug || 'branch';
}
