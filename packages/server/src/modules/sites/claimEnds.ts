import type { Db, Executor } from '../../db/schema.ts';
import { recordEvent } from '../../events/outbox.ts';
import type { PartsOf } from '../../features/parts.ts';
import { endClaim, RELEASED_DOMAIN_DAYS, UNVERIFIED_CLAIM_DAYS } from './claims.ts';

interface EndedClaim {
  name: string;
  site_id: string;
  org_id: string;
  team_id: string;
}

const day = (iso: string) => iso.slice(0, 10);

/** Each site whose claim ended hears of it: its edges stop answering the challenge, its console shows why. */
async function recordEnds(trx: Executor, ends: { claim: EndedClaim; reason: 'taken' | 'expired' }[]) {
  for (const { claim, reason } of ends) {
    await recordEvent(trx, {
      name: 'site_updated',
      actorId: null,
      orgId: claim.org_id,
      teamId: claim.team_id,
      siteId: claim.site_id,
      data: { domainClaimEnded: claim.name, reason },
    });
  }
}

function unverifiedClaims(db: Executor) {
  return db
    .selectFrom('domain_claims')
    .innerJoin('sites', 'sites.id', 'domain_claims.site_id')
    .select(['domain_claims.name', 'domain_claims.site_id', 'domain_claims.org_id', 'sites.team_id'])
    .where('domain_claims.verified_at', 'is', null);
}

function whyTaken(claim: EndedClaim, verifier: { org_id: string }, name: string, at: string) {
  if (claim.org_id === verifier.org_id) return `Another site of this organization verified ${name} on ${day(at)}`;
  if (claim.name === name) return `Another organization verified ${name} on ${day(at)}`;
  return `Another organization verified ${name} on ${day(at)}: only it may claim the names under it`;
}

/**
 * A verified claim settles the name: other sites' claims of it end, and so do other
 * organizations' claims of names under it (which only the verifier's organization may claim),
 * those proved over HTTP included: `*.{name}` may have pointed at Wharf before its owners came,
 * which is all such a proof showed. Claims proved by their TXT record stay (the DNS of the name
 * said so). In the verifying transaction, after the verified claim is written.
 */
export async function takeOverClaims(trx: Executor, verifier: { id: string; org_id: string }, name: string) {
  const candidates = await trx
    .selectFrom('domain_claims')
    .innerJoin('sites', 'sites.id', 'domain_claims.site_id')
    .select(['domain_claims.name', 'domain_claims.site_id', 'domain_claims.org_id', 'sites.team_id'])
    .select('domain_claims.verified_at')
    .where('domain_claims.site_id', '!=', verifier.id)
    .where((eb) => eb.or([eb('domain_claims.name', '=', name), eb('domain_claims.name', 'like', `%.${name}`)]))
    .where((eb) => eb.or([eb('domain_claims.verified_at', 'is', null), eb('domain_claims.verified_by', '=', 'http')]))
    .execute();
  const under = (claim: EndedClaim) => claim.name.endsWith(`.${name}`) && claim.org_id !== verifier.org_id;
  const losers = candidates.filter((claim) => under(claim) || (claim.name === name && !claim.verified_at));
  const at = new Date().toISOString();
  const ends = [];
  for (const claim of losers) {
    const message = whyTaken(claim, verifier, name, at);
    if (await endClaim(trx, claim.site_id, claim.name, { reason: 'taken', at, message }, claim.verified_at !== null))
      ends.push({ claim, reason: 'taken' as const });
  }
  await recordEnds(trx, ends);
}

/**
 * Ends the claims still unverified UNVERIFIED_CLAIM_DAYS after they were saved, and forgets the
 * releases past their time; part of the periodic housekeeping. Returns how many claims ended.
 */
export async function expireUnverifiedClaims(parts: PartsOf<'db'>, at = new Date()) {
  const db: Db = parts.db;
  const before = new Date(at.getTime() - UNVERIFIED_CLAIM_DAYS * 86_400_000).toISOString();
  const expired = await unverifiedClaims(db).where('domain_claims.claimed_at', '<=', before).execute();
  const message = `Not verified within ${UNVERIFIED_CLAIM_DAYS} days of being added: Wharf no longer answers its HTTP challenge. Its TXT record still proves it; or remove the domain and add it again.`;
  // Released domains matter for RELEASED_DOMAIN_DAYS only: older rows are forgotten.
  const releasedBefore = new Date(at.getTime() - RELEASED_DOMAIN_DAYS * 86_400_000).toISOString();
  await db.deleteFrom('released_domains').where('released_at', '<', releasedBefore).execute();
  let count = 0;
  for (const claim of expired) {
    await db.transaction().execute(async (trx) => {
      const ended = await endClaim(trx, claim.site_id, claim.name, {
        reason: 'expired',
        at: at.toISOString(),
        message,
      });
      if (ended) await recordEnds(trx, [{ claim, reason: 'expired' }]);
      count += ended ? 1 : 0;
    });
  }
  return count;
}
