import { api, type DomainOwnership, isDomainVerified } from '@wharf/contract';
import { userOf } from '../../access/rules.ts';
import type { Executor } from '../../db/schema.ts';
import { isUniqueViolation } from '../../db/uniqueViolation.ts';
import { recordEvent } from '../../events/outbox.ts';
import type { PartsOf } from '../../features/parts.ts';
import { httpError } from '../../http/errors.ts';
import { now } from '../../lib/ids.ts';
import { takeOverClaims } from './claimEnds.ts';
import { changeOwnership, httpProofProblem, mustBeClaimable } from './claims.ts';
import { checkDomainDns } from './domainDns.ts';
import { checkHttpChallenge, checkTxtRecord } from './ownershipChecks.ts';
import { getSite, storedDomains } from './queries.ts';
import { siteScope } from './siteEvents.ts';

/**
 * Writes the ownership of one domain, read again in the same transaction: a save of the settings
 * while DNS was asked may have removed the domain, or given the name a new token.
 */
function writeOwnership(trx: Executor, siteId: string, name: string, token: string, ownership: DomainOwnership) {
  return changeOwnership(trx, siteId, name, (saved) => (saved.token === token ? ownership : null));
}

/** The site's claim of a name becomes the verified one (claims that ended hold no row: it is made again). */
async function markClaimVerified(
  trx: Executor,
  site: { id: string; org_id: string },
  name: string,
  verified: { at: string; by: 'txt' | 'http' },
) {
  await trx.deleteFrom('domain_claims').where('site_id', '=', site.id).where('name', '=', name).execute();
  try {
    await trx
      .insertInto('domain_claims')
      .values({
        name,
        site_id: site.id,
        org_id: site.org_id,
        verified_at: verified.at,
        verified_by: verified.by,
        claimed_at: verified.at,
      })
      .execute();
  } catch (error) {
    // Two sites proved the same name at once: the database keeps one verified claim per name.
    if (isUniqueViolation(error)) throw httpError('DOMAIN_TAKEN', `The domain ${name} was verified by another site`);
    throw error;
  }
  await trx.deleteFrom('released_domains').where('name', '=', name).execute();
}

/** Custom domains' ownership: checked when their owners ask, served by the edge once verified. */
export function siteDomainRoutes(parts: PartsOf<'access' | 'config' | 'db' | 'handle' | 'outbound'>) {
  const { db, config, outbound } = parts;

  parts.handle(api.getSiteDomainDns, parts.access.siteViewer, async ({ site, params }) => {
    const domain = (await storedDomains(db, site.id)).find((saved) => saved.name === params.name);
    if (!domain) throw httpError('DOMAIN_NOT_FOUND', `The site has no domain ${params.name}`);
    return checkDomainDns(config, site.name, domain.name);
  });

  parts.handle(api.verifySiteDomain, parts.access.siteManager, async ({ actor, site, params }) => {
    const domain = (await storedDomains(db, site.id)).find((saved) => saved.name === params.name);
    if (!domain?.ownership) throw httpError('DOMAIN_NOT_FOUND', `The site has no domain ${params.name}`);
    if (isDomainVerified(domain)) return getSite(db, config, site.id);
    // Nothing is asked of DNS for a name someone else holds: no proof would change that.
    await mustBeClaimable(db, site, domain.name);
    const { token } = domain.ownership;
    // The TXT record first; the HTTP challenge for a domain whose DNS Wharf cannot reach or its owner cannot edit.
    const txtProblem = await checkTxtRecord({ config, outbound }, domain.name, token);
    const httpProblem =
      txtProblem &&
      ((await httpProofProblem(db, site, domain)) ??
        (await checkHttpChallenge({ config, outbound }, domain.name, token)));
    if (txtProblem && httpProblem) {
      const reason = `${txtProblem}, and ${httpProblem}`;
      await writeOwnership(db, site.id, domain.name, token, {
        ...domain.ownership,
        verifiedAt: null,
        lastError: reason,
      });
      throw httpError('DOMAIN_NOT_VERIFIED', `${domain.name} is not verified: ${reason}`);
    }
    await db.transaction().execute(async (trx) => {
      // Another site may have verified the name (or a domain above it) while DNS was asked.
      await mustBeClaimable(trx, site, domain.name);
      const verifiedAt = now();
      if (!(await writeOwnership(trx, site.id, domain.name, token, { token, verifiedAt }))) return;
      await markClaimVerified(trx, site, domain.name, { at: verifiedAt, by: txtProblem ? 'http' : 'txt' });
      await takeOverClaims(trx, site, domain.name);
      // The event tells every edge to read the site again, and so to start serving the domain.
      await recordEvent(trx, {
        name: 'site_updated',
        actorId: userOf(actor),
        ...siteScope(site),
        data: { domainVerified: domain.name, method: txtProblem ? 'http' : 'txt' },
      });
    });
    return getSite(db, config, site.id);
  });
}
