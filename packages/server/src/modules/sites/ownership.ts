import type { Domain, DomainOwnership } from '@wharf/contract';
import { randomString } from '../../lib/ids.ts';

/** The path Wharf's edge answers for a saved domain not verified yet, and fetches to check it. */
export const CHALLENGE_PREFIX = '/.well-known/wharf-ownership/';

/** The TXT record that proves ownership of a domain. */
export const txtRecordName = (domainName: string) => `_wharf.${domainName}`;

/**
 * A token is random and stored with the domain, not derived from `WHARF_SECRET`: that secret is
 * optional and may be rotated, and a token must stay what the owner put in their DNS. Cluster
 * workers read it from the same row as the rest of the routing.
 */
function newOwnership(): DomainOwnership {
  return { token: `wharf-${randomString(32)}`, verifiedAt: null };
}

/**
 * Ownership is the server's: whatever a save brings is ignored. A domain keeps the ownership saved
 * for the same name (its token, and whether it was verified); a new name gets a new token.
 */
export function keepOwnership(saved: Domain[], given: Domain[]): Domain[] {
  const savedOwnership = new Map(
    saved.flatMap((domain) => (domain.ownership ? [[domain.name, domain.ownership]] : [])),
  );
  return given.map((domain) => ({ ...domain, ownership: savedOwnership.get(domain.name) ?? newOwnership() }));
}
