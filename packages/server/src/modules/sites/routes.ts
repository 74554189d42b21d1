import { api } from '@wharf/contract';
import { userOf } from '../../access/rules.ts';
import type { PartsOf } from '../../features/parts.ts';
import { checkManualCertificates, keepSavedPrivateKeys, mustNotBeWharfHosts, sealPrivateKeys } from './certificates.ts';
import { keepOwnership } from './ownership.ts';
import { getSite, isSiteNameTaken, listTeamSites, searchOrgSites, storedDomains } from './queries.ts';
import { createSite, deleteSite, siteNameProblem, updateSite } from './service.ts';

export function siteRoutes(parts: PartsOf<'access' | 'config' | 'db' | 'handle' | 'sealer'>) {
  const { db, config, access, sealer } = parts;

  parts.handle(api.listOrgSites, access.orgMember, ({ params, query }) =>
    searchOrgSites(db, config, params.orgId, query, query),
  );

  parts.handle(api.listTeamSites, access.teamViewer, ({ team }) => listTeamSites(db, config, team.id));

  parts.handle(api.createSite, access.teamAdmin, ({ actor, team, body }) => {
    return createSite(db, config, {
      actorId: userOf(actor),
      orgId: team.org_id,
      teamId: team.id,
      name: body.name,
      color: body.color,
    });
  });

  parts.handle(api.validateSiteName, access.person, async ({ body }) => {
    const problem = siteNameProblem(config, body.name);
    if (problem) return { valid: false, message: problem };
    return (await isSiteNameTaken(db, body.name)) ? { valid: false, message: 'Site name is taken' } : { valid: true };
  });

  parts.handle(api.getSite, access.siteViewer, ({ site }) => getSite(db, config, site.id));

  parts.handle(api.updateSite, access.siteManager, async ({ actor, params, body }) => {
    mustNotBeWharfHosts(config, body.domains);
    const saved = await storedDomains(db, params.siteId);
    const domains = keepOwnership(saved, keepSavedPrivateKeys(sealer, saved, body.domains));
    checkManualCertificates(domains);
    return updateSite(db, config, userOf(actor), params.siteId, { ...body, domains: sealPrivateKeys(sealer, domains) });
  });

  parts.handle(api.deleteSite, access.siteAdmin, async ({ actor, site }) => {
    await deleteSite(db, userOf(actor), site);
  });
}
