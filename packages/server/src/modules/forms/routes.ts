import { api } from '@wharf/contract';
import { type Guard, param } from '../../access/guards.ts';
import { mustSeeSite } from '../../access/rules.ts';
import { feature } from '../../features/feature.ts';
import type { PartsOf } from '../../features/parts.ts';
import { invalidField } from '../../http/errors.ts';
import { findBranch } from '../branches/queries.ts';
import { branchIdsOfSite, listSiteForms } from './queries.ts';
import { replaceSiteForms } from './service.ts';

const needs = ['access', 'db', 'handle'] as const;

/**
 * The forms of a site. spec.md names no event for form changes, so none is recorded (as for
 * `PUT /releases/{id}/forms`, which sets them as the release's branches see them).
 */
function formRoutes(parts: PartsOf<(typeof needs)[number]>) {
  const { db, access } = parts;

  /** The branch of the path, of a site the caller may see. */
  const branchViewable: Guard<{ site: { id: string }; branch: { id: string } }> = async (actor, params) => {
    const { site } = await mustSeeSite(db, actor, param(params, 'siteId'));
    return { site, branch: await findBranch(db, site.id, param(params, 'branchId')) };
  };

  parts.handle(api.listSiteForms, access.siteViewer, ({ site }) => listSiteForms(db, site.id));

  parts.handle(api.setSiteForms, access.siteManager, async ({ site, body }) => {
    await db.transaction().execute(async (trx) => {
      const branches = await branchIdsOfSite(trx, site.id);
      body.forms.forEach((form, index) => {
        const stranger = form.branches?.findIndex((id) => !branches.has(id)) ?? -1;
        if (stranger !== -1) throw invalidField(`forms.${index}.branches.${stranger}`, 'No such branch of the site');
      });
      await replaceSiteForms(trx, site.id, body.forms);
    });
    return listSiteForms(db, site.id);
  });

  parts.handle(api.listBranchForms, branchViewable, ({ site, branch }) => listSiteForms(db, site.id, [branch.id]));
}

/** Sites' form settings. */
export const formsFeature = feature({ name: 'forms', needs, routes: formRoutes });
