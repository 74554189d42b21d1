import type { BranchHosts } from '../config/types.ts';
import { LruCache } from './lru.ts';
import { FLAT_BRANCH_SEPARATOR, RELEASE_SLUG_LENGTH, RELEASE_SLUG_PATTERN } from './urls.ts';

/** A site by name (and maybe a branch), or a custom domain. */
export type SiteOrDomain =
  | { kind: 'site'; siteName: string; branchSlug: string | null }
  | { kind: 'domain'; domain: string; branchSlug: string | null };

/**
 * What a Host header asks for. `{slug}--{site}` names a release's permanent address when the site
 * has a release of that slug, and otherwise what the label would name without releases
 * (`otherwise`: a site whose name holds `--`, or a flat branch host): a release address is
 * checked first, so it never changes, and a random slug rarely shadows anything.
 */
export type HostTarget =
  | SiteOrDomain
  | { kind: 'release'; siteName: string; releaseSlug: string; otherwise: SiteOrDomain };

/** The host name without port, lower-cased; null when absent or malformed. */
export function hostName(header: string | undefined): string | null {
  if (!header) return null;
  const host = header.trim().toLowerCase();
  const end = host.startsWith('[') ? host.indexOf(']') + 1 : host.indexOf(':');
  const name = end === -1 ? host : host.slice(0, end);
  return name.endsWith('.') ? name.slice(0, -1) : name;
}

/**
 * With flat branch hosts, `{branch}--{site}` → that branch. Split at the first `--`: a slug never
 * holds one (slugOf), while a site name saved before the switch may; site names with `--` are
 * refused in this mode, so one label names one branch or one site, never both.
 */
function flatLabel(label: string): SiteOrDomain {
  const separator = label.indexOf(FLAT_BRANCH_SEPARATOR);
  if (separator <= 0) return { kind: 'site', siteName: label, branchSlug: null };
  return {
    kind: 'site',
    siteName: label.slice(separator + FLAT_BRANCH_SEPARATOR.length),
    branchSlug: label.slice(0, separator),
  };
}

/**
 * `{site}.{sites host}` → main branch, `{branch}.{site}.{sites host}` → that branch (or
 * `{branch}--{site}.{sites host}` with flat branch hosts), `{release slug}--{site}.{sites host}` →
 * that release (either way). Any other host is a candidate custom domain: the domain itself, or
 * `{branch}.{domain}` when it exposes branches.
 */
export function parseHost(host: string, sitesHost: string, branchHosts: BranchHosts = 'nested'): HostTarget {
  const suffix = `.${sitesHost}`;
  if (host.endsWith(suffix)) {
    const labels = host.slice(0, -suffix.length).split('.');
    if (labels.length === 1) {
      const label = labels[0]!;
      const otherwise: SiteOrDomain =
        branchHosts === 'flat' ? flatLabel(label) : { kind: 'site', siteName: label, branchSlug: null };
      return releaseLabel(label, otherwise) ?? otherwise;
    }
    if (labels.length === 2 && branchHosts === 'nested')
      return { kind: 'site', siteName: labels[1]!, branchSlug: labels[0]! };
  }
  const dot = host.indexOf('.');
  return { kind: 'domain', domain: host, branchSlug: dot > 0 ? host.slice(0, dot) : null };
}

/** `{slug}--{site}` with a slug of a release's shape: a candidate release address. */
function releaseLabel(label: string, otherwise: SiteOrDomain): HostTarget | null {
  const slug = label.slice(0, RELEASE_SLUG_LENGTH);
  const rest = label.slice(RELEASE_SLUG_LENGTH);
  if (!rest.startsWith(FLAT_BRANCH_SEPARATOR) || !RELEASE_SLUG_PATTERN.test(slug)) return null;
  const siteName = rest.slice(FLAT_BRANCH_SEPARATOR.length);
  return siteName ? { kind: 'release', siteName, releaseSlug: slug, otherwise } : null;
}

/** A Host header read once: its name, and what it asks for under the sites host. */
export interface ParsedHost {
  name: string;
  target: HostTarget;
}

/** Longer headers are parsed every time rather than kept: the cache stays small whatever clients send. */
const CACHED_HEADER_LENGTH = 256;

/**
 * Host headers parsed once each: an edge sees the same few values again and again, and reads
 * each request's twice (whether it is for a site, then which). Only the parsing is kept, never
 * what the routing table says about the name, which changes with every deploy.
 */
export class HostParser {
  private readonly parsed = new LruCache<string, ParsedHost | null>(1000);

  constructor(
    private readonly sitesHost: string,
    private readonly branchHosts: BranchHosts = 'nested',
  ) {}

  parse(header: string | undefined): ParsedHost | null {
    if (!header) return null;
    let parsed = this.parsed.get(header);
    if (parsed === undefined) {
      const name = hostName(header);
      parsed = name ? { name, target: parseHost(name, this.sitesHost, this.branchHosts) } : null;
      if (header.length <= CACHED_HEADER_LENGTH) this.parsed.set(header, parsed);
    }
    return parsed;
  }
}
