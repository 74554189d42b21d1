import { api, type DomainOwnership } from '@wharf/contract';
import { userOf } from '../../access/rules.ts';
import type { Executor } from '../../db/schema.ts';
import { recordEvent } from '../../events/outbox.ts';
import { httpError } from '../../http/errors.ts';
import { now } from '../../lib/ids.ts';
import type { WharfApp } from '../../wharfApp.ts';
import { isVerified } from './ownership.ts';
import { checkHttpChallenge, checkTxtRecord } from './ownershipChecks.ts';
import { getSite, storedDomains } from './queries.ts';
import { siteScope } from './siteEvents.ts';

/**
 * Writes the ownership of one domain, read again in the same transaction: a save of the settings
 * while DNS was asked may have removed the domain, or given the name a new token.
 */
async function writeOwnership(trx: Executor, siteId: string, name: string, token: string, ownership: DomainOwnership) {
  const domains = await storedDomains(trx, siteId);
  const index = domains.findIndex((domain) => domain.name === name && domain.ownership?.token === token);
  if (index === -1) return false;
  domains[index] = { ...domains[index]!, ownership };
  await trx
    .updateTable('sites')
    .set({ domains: JSON.stringify(domains) })
    .where('id', '=', siteId)
    .execute();
  return true;
}

/** Custom domains' ownership: checked when their owners ask, served by the edge once verified. */
export function siteDomainRoutes(app: WharfApp) {
  const { db, config, outbound } = app;

  app.handle(api.verifySiteDomain, app.access.siteManager, async ({ actor, site, params }) => {
    const domain = (await storedDomains(db, site.id)).find((saved) => saved.name === params.name);
    if (!domain?.ownership) throw httpError('DOMAIN_NOT_FOUND', `The site has no domain ${params.name}`);
    if (isVerified(domain)) return getSite(db, config, site.id);
    const { token } = domain.ownership;
    // The TXT record first; the HTTP challenge for a domain whose DNS Wharf cannot reach or its owner cannot edit.
    const txtProblem = await checkTxtRecord({ config, outbound }, domain.name, token);
    const httpProblem = txtProblem && (await checkHttpChallenge({ config, outbound }, domain.name, token));
    if (txtProblem && httpProblem) {
      const reason = `${txtProblem}, and ${httpProblem}`;
      await writeOwnership(db, site.id, domain.name, token, { token, verifiedAt: null, lastError: reason });
      throw httpError('DOMAIN_NOT_VERIFIED', `${domain.name} is not verified: ${reason}`);
    }
    await db.transaction().execute(async (trx) => {
      if (!(await writeOwnership(trx, site.id, domain.name, token, { token, verifiedAt: now() }))) return;
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
