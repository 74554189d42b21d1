import { api } from '@wharf/contract';
import type { Actor } from '../../access/actor.ts';
import { mustManageSite, mustSeeSite, mustSeeSiteOrItsToken, userOf } from '../../access/rules.ts';
import { recordEvent } from '../../events/outbox.ts';
import { httpError } from '../../http/errors.ts';
import type { WharfApp } from '../../wharfApp.ts';
import { findBranch } from '../branches/queries.ts';
import { setFormsSeenBy } from '../forms/service.ts';
import { siteScope } from '../sites/siteEvents.ts';
import { findRelease, getRelease, listReleases } from './queries.ts';
import { deleteReleaseRows } from './service.ts';

export function releaseRoutes(app: WharfApp) {
  const { db, config } = app;

  /** A release and its site, for a caller who may see (or, with `manage`, change) the site. */
  async function releaseOfSite(actor: Actor, releaseId: string, manage: boolean) {
    const release = await findRelease(db, releaseId);
    const { site } = await (manage ? mustManageSite : mustSeeSite)(db, actor, release.site_id);
    return { release, site };
  }

  app.handle(api.listReleases, async ({ actor, params, query }) => {
    const site = await mustSeeSiteOrItsToken(db, actor, params.siteId);
    if (query.branch) await findBranch(db, site.id, query.branch);
    return listReleases(db, config, site, query, query);
  });

  app.handle(api.getRelease, async ({ actor, params }) => {
    const { release, site } = await releaseOfSite(actor, params.releaseId, false);
    return getRelease(db, config, site.name, release.id);
  });

  app.handle(api.renameRelease, async ({ actor, params, body }) => {
    const { release, site } = await releaseOfSite(actor, params.releaseId, true);
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('releases').set({ name: body.name }).where('id', '=', release.id).execute();
      await recordEvent(trx, {
        name: 'site_release_renamed',
        actorId: userOf(actor),
        ...siteScope(site),
        data: { releaseId: release.id, name: body.name, previousName: release.name },
      });
    });
    return getRelease(db, config, site.name, release.id);
  });

  app.handle(api.deleteRelease, async ({ actor, params }) => {
    const { release, site } = await releaseOfSite(actor, params.releaseId, true);
    await db.transaction().execute(async (trx) => {
      const users = await trx.selectFrom('branches').select('name').where('release_id', '=', release.id).execute();
      if (users.length > 0) {
        const names = users.map((b) => b.name).join(', ');
        throw httpError(
          'RELEASE_IN_USE',
          `The release is served by ${names}; point ${users.length > 1 ? 'them' : 'it'} at another release first`,
        );
      }
      await deleteReleaseRows(trx, site, [release], { actorId: userOf(actor) });
    });
  });

  /**
   * Forms belong to the site, so that they survive the next deploy: the list becomes the site's
   * forms as the branches serving the release see them, which is what the console's Forms tab of a
   * branch (and any client of spec.md's call) means. spec.md names no event for form changes, so
   * none is recorded; the release answers the new forms.
   */
  app.handle(api.setReleaseForms, async ({ actor, params, body }) => {
    const { release, site } = await releaseOfSite(actor, params.releaseId, true);
    await db.transaction().execute(async (trx) => {
      const serving = await trx.selectFrom('branches').select('id').where('release_id', '=', release.id).execute();
      await setFormsSeenBy(
        trx,
        site.id,
        serving.map((branch) => branch.id),
        body.forms,
      );
    });
    return getRelease(db, config, site.name, release.id);
  });
}
