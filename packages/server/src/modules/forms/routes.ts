import { api } from '@wharf/contract';
import { mustManageSite, mustSeeSite } from '../../access/rules.ts';
import { invalidField } from '../../http/errors.ts';
import type { WharfApp } from '../../wharfApp.ts';
import { findBranch } from '../branches/queries.ts';
import { branchIdsOfSite, listSiteForms } from './queries.ts';
import { replaceSiteForms } from './service.ts';

/**
 * The forms of a site. spec.md names no event for form changes, so none is recorded (as for
 * `PUT /releases/{id}/forms`, which sets them as the release's branches see them).
 */
export function formRoutes(app: WharfApp) {
  const { db } = app;

  app.handle(api.listSiteForms, async ({ actor, params }) => {
    const { site } = await mustSeeSite(db, actor, params.siteId);
    return listSiteForms(db, site.id);
  });

  app.handle(api.setSiteForms, async ({ actor, params, body }) => {
    const { site } = await mustManageSite(db, actor, params.siteId);
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

  app.handle(api.listBranchForms, async ({ actor, params }) => {
    const { site } = await mustSeeSite(db, actor, params.siteId);
    const branch = await findBranch(db, site.id, params.branchId);
    return listSiteForms(db, site.id, [branch.id]);
  });
}
