import type { BranchHosts } from '../config.ts';
import { FLAT_BRANCH_SEPARATOR } from '../lib/urls.ts';

/** What a Host header asks for: a site by name (and maybe a branch), or a custom domain. */
export type HostTarget =
  | { kind: 'site'; siteName: string; branchSlug: string | null }
  | { kind: 'domain'; domain: string; branchSlug: string | null };

/** The host name without port, lower-cased; null when absent or malformed. */
export function hostName(header: string | undefined): string | null {
  if (!header) return null;
  const host = header.trim().toLowerCase();
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0]!;
  return name.endsWith('.') ? name.slice(0, -1) : name;
}

/**
 * With flat branch hosts, `{branch}--{site}` → that branch. Split at the first `--`: a slug never
 * holds one (slugOf), while a site name saved before the switch may; site names with `--` are
 * refused in this mode, so one label names one branch or one site, never both.
 */
function flatLabel(label: string): HostTarget {
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
 * `{branch}--{site}.{sites host}` with flat branch hosts). Any other host is a candidate custom
 * domain: the domain itself, or `{branch}.{domain}` when it exposes branches.
 */
export function parseHost(host: string, sitesHost: string, branchHosts: BranchHosts = 'nested'): HostTarget {
  const suffix = `.${sitesHost}`;
  if (host.endsWith(suffix)) {
    const labels = host.slice(0, -suffix.length).split('.');
    if (labels.length === 1)
      return branchHosts === 'flat' ? flatLabel(labels[0]!) : { kind: 'site', siteName: labels[0]!, branchSlug: null };
    if (labels.length === 2 && branchHosts === 'nested')
      return { kind: 'site', siteName: labels[1]!, branchSlug: labels[0]! };
  }
  const dot = host.indexOf('.');
  return { kind: 'domain', domain: host, branchSlug: dot > 0 ? host.slice(0, dot) : null };
}
