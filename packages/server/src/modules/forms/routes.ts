import { api } from '@wharf/contract';
import { mustManageSite, mustSeeSite } from '../../access/rules.ts';
import type { WharfApp } from '../../wharfApp.ts';
import { findBranch } from '../branches/queries.ts';
import { listSiteForms } from './queries.ts';
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
    await db.transaction().execute((trx) => replaceSiteForms(trx, site.id, body.forms));
    return listSiteForms(db, site.id);
  });

  app.handle(api.listBranchForms, async ({ actor, params }) => {
    const { site } = await mustSeeSite(db, actor, params.siteId);
    const branch = await findBranch(db, site.id, params.branchId);
    return listSiteForms(db, site.id, [branch.id]);
  });
}
