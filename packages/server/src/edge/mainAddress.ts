import type { ParsedHost } from '../lib/hosts.ts';
import type { RoutingTable, SiteEntry } from './routingTable.ts';

/**
 * The one address a site's main branch is served at, when a request for the main branch came in
 * by another: null when it came by that one. The primary domain when the site has one; else
 * the site's own `{site}.{sites host}` for `{main}.{site}` and `{main}--{site}`, and a custom
 * domain for `{main}.{domain}`: a branch's slug names the main branch only to point at its address.
 * Answering both would split a site's links, caches and search ranking between two names.
 */
export function mainAddressFor(site: SiteEntry, host: ParsedHost, table: RoutingTable, sitesHost: string) {
  if (site.primaryDomain !== null) return host.name === site.primaryDomain ? null : site.primaryDomain;
  const target = host.target.kind === 'release' ? host.target.otherwise : host.target;
  if (target.branchSlug === null) return null;
  if (target.kind === 'site') return `${target.siteName}.${sitesHost}`;
  // A domain of its own (`www.shop.test` saved beside `shop.test`) is not a branch of its parent.
  return table.isDomainItself(host.name) ? null : host.name.slice(target.branchSlug.length + 1);
}
