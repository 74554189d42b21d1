import { api } from '@wharf/contract';
import {
  mustAdminSite,
  mustAdminTeam,
  mustBeOrgMember,
  mustManageSite,
  mustSeeSite,
  mustSeeTeam,
  userOf,
} from '../../access/rules.ts';
import type { WharfApp } from '../../wharfApp.ts';
import { checkManualCertificates, keepSavedPrivateKeys, mustNotBeWharfHosts, sealPrivateKeys } from './certificates.ts';
import { keepOwnership } from './ownership.ts';
import { getSite, isSiteNameTaken, listTeamSites, searchOrgSites, storedDomains } from './queries.ts';
import { createSite, deleteSite, siteNameProblem, updateSite } from './service.ts';

export function siteRoutes(app: WharfApp) {
  const { db, config, sealer } = app;

  app.handle(api.listOrgSites, async ({ actor, params, query }) => {
    await mustBeOrgMember(db, actor, params.orgId);
    return searchOrgSites(db, config, params.orgId, query.search, query);
  });

  app.handle(api.listTeamSites, async ({ actor, params }) => {
    await mustSeeTeam(db, actor, params.teamId);
    return listTeamSites(db, config, params.teamId);
  });

  app.handle(api.createSite, async ({ actor, params, body }) => {
    const { team } = await mustAdminTeam(db, actor, params.teamId);
    return createSite(db, config, {
      actorId: userOf(actor),
      orgId: team.org_id,
      teamId: team.id,
      name: body.name,
      color: body.color,
    });
  });

  app.handle(api.validateSiteName, async ({ actor, body }) => {
    userOf(actor);
    const problem = siteNameProblem(config, body.name);
    if (problem) return { valid: false, message: problem };
    return (await isSiteNameTaken(db, body.name)) ? { valid: false, message: 'Site name is taken' } : { valid: true };
  });

  app.handle(api.getSite, async ({ actor, params }) => {
    await mustSeeSite(db, actor, params.siteId);
    return getSite(db, config, params.siteId);
  });

  app.handle(api.updateSite, async ({ actor, params, body }) => {
    await mustManageSite(db, actor, params.siteId);
    mustNotBeWharfHosts(config, body.domains);
    const saved = await storedDomains(db, params.siteId);
    const domains = keepOwnership(saved, keepSavedPrivateKeys(sealer, saved, body.domains));
    checkManualCertificates(domains);
    return updateSite(db, config, userOf(actor), params.siteId, { ...body, domains: sealPrivateKeys(sealer, domains) });
  });

  app.handle(api.deleteSite, async ({ actor, params }) => {
    const { site } = await mustAdminSite(db, actor, params.siteId);
    await deleteSite(db, userOf(actor), site);
  });
}
