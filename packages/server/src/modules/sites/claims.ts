import type { Domain, DomainOwnership } from '@wharf/contract';
import type { Executor } from '../../db/schema.ts';
import { httpError } from '../../http/errors.ts';
import { now } from '../../lib/ids.ts';
import { storedDomains } from './queries.ts';

/** How long a saved domain may stay unverified before its claim expires. */
export const UNVERIFIED_CLAIM_DAYS = 7;
/** How long after a verified domain leaves its site only its TXT record proves it for another organization. */
export const RELEASED_DOMAIN_DAYS = 30;

const DAY_MS = 86_400_000;
const daysBefore = (at: Date, days: number) => new Date(at.getTime() - days * DAY_MS).toISOString();

interface ClaimingSite {
  id: string;
  org_id: string;
}

/** The name and every domain above it: `dev.shop.example`, `shop.example`, `example`. */
export function namesAtOrAbove(name: string): string[] {
  const labels = name.split('.');
  return labels.map((_, index) => labels.slice(index).join('.'));
}

/** The verified claims of other sites at or above a name: whoever Wharf already serves it (or its parent) for. */
export function verifiedAbove(db: Executor, siteId: string, name: string) {
  return db
    .selectFrom('domain_claims')
    .select(['name', 'site_id', 'org_id'])
    .where('name', 'in', namesAtOrAbove(name))
    .where('verified_at', 'is not', null)
    .where('site_id', '!=', siteId)
    .execute();
}

/**
 * A name at or under a domain another organization verified is that organization's to claim
 * (its DNS may point `*.domain` at Wharf: the HTTP challenge would prove nothing); a name another
 * site of the same organization verified is that site's.
 */
export async function mustBeClaimable(db: Executor, site: ClaimingSite, name: string) {
  for (const holder of await verifiedAbove(db, site.id, name)) {
    if (holder.org_id !== site.org_id)
      throw httpError(
        'DOMAIN_OF_ANOTHER_ORG',
        holder.name === name
          ? `${name} was verified by another organization`
          : `${name} is under ${holder.name}, which another organization verified: only that organization may claim it`,
      );
    if (holder.name === name) throw httpError('DOMAIN_TAKEN', `The domain ${name} is used by another site`);
  }
}

/** Remembers verified domains taken off a site (see RELEASED_DOMAIN_DAYS). */
export async function releaseDomains(trx: Executor, orgId: string, names: string[]) {
  if (names.length === 0) return;
  await trx.deleteFrom('released_domains').where('name', 'in', names).execute();
  const releasedAt = now();
  await trx
    .insertInto('released_domains')
    .values(names.map((name) => ({ name, org_id: orgId, released_at: releasedAt })))
    .execute();
}

const isLive = (domain: Domain) => !domain.ownership?.ended;

/**
 * Replaces a site's claims with the domains it now lists: a name new to the site must be
 * claimable, a verified one it drops is released, and a claim that ended claims nothing.
 */
export async function saveClaims(trx: Executor, site: ClaimingSite, domains: Domain[]) {
  const before = await trx
    .selectFrom('domain_claims')
    .select(['name', 'verified_at', 'verified_by', 'claimed_at'])
    .where('site_id', '=', site.id)
    .execute();
  const previous = new Map(before.map((claim) => [claim.name, claim]));
  const live = domains.filter(isLive);
  for (const domain of live) if (!previous.has(domain.name)) await mustBeClaimable(trx, site, domain.name);
  const kept = new Set(live.map((domain) => domain.name));
  const dropped = before.filter((claim) => claim.verified_at && !kept.has(claim.name)).map((claim) => claim.name);
  await releaseDomains(trx, site.org_id, dropped);
  await trx.deleteFrom('domain_claims').where('site_id', '=', site.id).execute();
  if (live.length === 0) return;
  const claimedAt = now();
  await trx
    .insertInto('domain_claims')
    .values(
      live.map((domain) => ({
        name: domain.name,
        site_id: site.id,
        org_id: site.org_id,
        verified_at: domain.ownership?.verifiedAt ?? null,
        verified_by: previous.get(domain.name)?.verified_by ?? null,
        claimed_at: previous.get(domain.name)?.claimed_at ?? claimedAt,
      })),
    )
    .execute();
}

/** A deleted site's verified domains are released like those removed from its settings. */
export async function dropSiteClaims(trx: Executor, site: ClaimingSite) {
  const verified = await trx
    .selectFrom('domain_claims')
    .select('name')
    .where('site_id', '=', site.id)
    .where('verified_at', 'is not', null)
    .execute();
  await releaseDomains(
    trx,
    site.org_id,
    verified.map((claim) => claim.name),
  );
  await trx.deleteFrom('domain_claims').where('site_id', '=', site.id).execute();
}

/**
 * Why the HTTP challenge cannot prove this claim, or null. Wharf's own edge answers the challenge
 * of any saved name that reaches it, so it proves ownership only of a name that reaches Wharf for
 * no one else: not under a domain another site holds (whose `*.domain` may point here), not one
 * another organization gave up lately (its DNS may still point here), not a claim that ended
 * (the edge no longer answers it).
 */
export async function httpProofProblem(db: Executor, site: ClaimingSite, domain: Domain): Promise<string | null> {
  const ended = domain.ownership?.ended;
  if (ended)
    return `the claim ${ended.reason === 'expired' ? 'expired' : 'was taken'}: only the TXT record proves it now`;
  const [holder] = await verifiedAbove(db, site.id, domain.name);
  if (holder) return `Wharf serves ${holder.name} for another site: only the TXT record proves ${domain.name}`;
  const released = await db
    .selectFrom('released_domains')
    .select(['name', 'released_at'])
    .where('name', 'in', namesAtOrAbove(domain.name))
    .where('org_id', '!=', site.org_id)
    .where('released_at', '>', daysBefore(new Date(), RELEASED_DOMAIN_DAYS))
    .executeTakeFirst();
  if (released) {
    const until = new Date(Date.parse(released.released_at) + RELEASED_DOMAIN_DAYS * DAY_MS).toISOString();
    return `${released.name} was removed from another organization's site on ${released.released_at.slice(0, 10)}: until ${until.slice(0, 10)} only the TXT record proves ${domain.name}`;
  }
  return null;
}

/** Changes the ownership of one saved domain of a site; false when the site no longer lists it. */
export async function changeOwnership(
  trx: Executor,
  siteId: string,
  name: string,
  change: (ownership: DomainOwnership) => DomainOwnership | null,
): Promise<boolean> {
  const domains = await storedDomains(trx, siteId);
  const index = domains.findIndex((domain) => domain.name === name);
  const ownership = domains[index]?.ownership;
  const changed = ownership && change(ownership);
  if (!changed) return false;
  domains[index] = { ...domains[index]!, ownership: changed };
  await trx
    .updateTable('sites')
    .set({ domains: JSON.stringify(domains) })
    .where('id', '=', siteId)
    .execute();
  return true;
}

/**
 * Ends a claim: its site keeps the domain, shown with why, and claims nothing. Only a claim not
 * verified ends, unless `verifiedToo` (a claim proved over HTTP under a domain its holder verifies).
 */
export async function endClaim(
  trx: Executor,
  siteId: string,
  name: string,
  ended: NonNullable<DomainOwnership['ended']>,
  verifiedToo = false,
) {
  let claims = trx.deleteFrom('domain_claims').where('site_id', '=', siteId).where('name', '=', name);
  if (!verifiedToo) claims = claims.where('verified_at', 'is', null);
  await claims.execute();
  return changeOwnership(trx, siteId, name, (ownership) =>
    (ownership.verifiedAt && !verifiedToo) || ownership.ended ? null : { ...ownership, verifiedAt: null, ended },
  );
}
