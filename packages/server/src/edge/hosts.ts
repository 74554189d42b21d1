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
 * `{site}.{sites host}` → main branch, `{branch}.{site}.{sites host}` → that branch. Any other host
 * is a candidate custom domain: the domain itself, or `{branch}.{domain}` when it exposes branches.
 */
export function parseHost(host: string, sitesHost: string): HostTarget {
  const suffix = `.${sitesHost}`;
  if (host.endsWith(suffix)) {
    const labels = host.slice(0, -suffix.length).split('.');
    if (labels.length === 1) return { kind: 'site', siteName: labels[0]!, branchSlug: null };
    if (labels.length === 2) return { kind: 'site', siteName: labels[1]!, branchSlug: labels[0]! };
  }
  const dot = host.indexOf('.');
  return { kind: 'domain', domain: host, branchSlug: dot > 0 ? host.slice(0, dot) : null };
}
