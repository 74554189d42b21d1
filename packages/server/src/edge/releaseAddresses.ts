import type { Db } from '../db/schema.ts';
import type { HostTarget } from '../lib/hosts.ts';
import { LruCache } from '../lib/lru.ts';
import { releaseWithSlug } from '../releaseFiles/releaseSlug.ts';
import { type BranchEntry, protectionOf, type RoutingTable, type SiteEntry } from './routingTable.ts';

/** The site and branch (or release address) a request is for; null: no such site. */
export type Resolved = { site: SiteEntry; branch: BranchEntry | null } | null;

interface Known {
  /** The site entry the answer was found for: a newer one (any change to the site) asks again. */
  site: SiteEntry;
  release: BranchEntry | null;
}

/** The id of a release's entry as a branch: no branch id starts so. */
export const RELEASE_ENTRY_PREFIX = 'release:';

/** Slugs looked up, found or not: an unknown slug asked again and again costs one query, not one per request. */
const KNOWN_SLUGS = 10_000;

/**
 * The releases served at their own addresses (`{slug}--{site}`), looked up in the database the first
 * time and kept while the site is unchanged. A release's address is looked at now and then (a
 * preview, a review), not served at every request like branches: the routing table does not hold
 * every release of every site. Each is served like a branch of its own, with its own password (else
 * the site's), the site's headers and `noindex`, and without the console's redirects or forms, which belong to branches.
 */
export class ReleaseAddresses {
  private readonly known = new LruCache<string, Known>(KNOWN_SLUGS);

  constructor(private readonly db: Db) {}

  /**
   * The site and branch (or release) a host asks for: a release's own address first (its address
   * never changes), else what the label names without it; a promise when the release must be read.
   */
  resolve(table: RoutingTable, target: HostTarget): Resolved | Promise<Resolved> {
    if (target.kind !== 'release') return table.resolve(target);
    const site = table.siteNamed(target.siteName);
    const release = site ? this.find(site, target.releaseSlug) : null;
    const orElse = (found: BranchEntry | null) =>
      found ? { site: site!, branch: found } : table.resolve(target.otherwise);
    return release instanceof Promise ? release.then(orElse) : orElse(release);
  }

  /** The release at this slug of the site, as a branch to serve: at once when known, else once read. */
  find(site: SiteEntry, slug: string): BranchEntry | null | Promise<BranchEntry | null> {
    const key = `${site.id}/${slug}`;
    const known = this.known.get(key);
    if (known?.site === site) return known.release;
    return this.read(site, slug).then((release) => {
      this.known.set(key, { site, release });
      return release;
    });
  }

  private async read(site: SiteEntry, slug: string): Promise<BranchEntry | null> {
    const row = await releaseWithSlug(this.db, site.id, slug);
    if (!row) return null;
    return {
      id: `${RELEASE_ENTRY_PREFIX}${row.id}`,
      slug,
      releaseId: row.id,
      redirects: [],
      takesForms: false,
      ...site.releaseAddress,
      // Its own password, else the site's.
      protection: protectionOf(row) ?? site.releaseAddress.protection,
    };
  }
}
