import { api } from '@wharf/contract';
import { type Guard, param } from '../../access/guards.ts';
import { mustManageSite, mustSeeSite, mustUploadToSite, personOf, userOf } from '../../access/rules.ts';
import type { Database } from '../../db/schema.ts';
import { recordEvent } from '../../events/outbox.ts';
import type { PartsOf } from '../../features/parts.ts';
import { httpError } from '../../http/errors.ts';
import { findBranch, toBranch } from '../branches/queries.ts';
import { newPasswordColumns, pointBranchNamed } from '../branches/service.ts';
import { setFormsSeenBy } from '../forms/service.ts';
import { siteScope } from '../sites/siteEvents.ts';
import { mainBranchName } from './create/createRelease.ts';
import { archiveName, contentDisposition, releaseArchive } from './download.ts';
import { listFailedDeploys } from './failedDeploys.ts';
import { listReleaseFiles } from './files.ts';
import { auditOrigin, uploaderOf } from './origin.ts';
import { findRelease, getRelease, listReleases } from './queries.ts';
import { deleteReleaseRows } from './service.ts';

type Release = Awaited<ReturnType<typeof findRelease>>;

export function releaseRoutes(parts: PartsOf<'access' | 'blobs' | 'config' | 'db' | 'handle'>) {
  const { db, config } = parts;

  /** The release of the path and its site, for a caller who may see (or, with `manage`, change) the site. */
  const releaseOfSite =
    (manage: boolean): Guard<{ release: Release; site: Database['sites'] }> =>
    async (actor, params) => {
      const release = await findRelease(db, param(params, 'releaseId'));
      const { site } = await (manage ? mustManageSite : mustSeeSite)(db, actor, release.site_id);
      return { release, site };
    };
  const viewable = releaseOfSite(false);
  const manageable = releaseOfSite(true);

  parts.handle(api.listReleases, parts.access.siteViewerOrToken, async ({ site, query }) => {
    if (query.branch) await findBranch(db, site.id, query.branch);
    return listReleases(db, config, site, query, query);
  });

  parts.handle(api.listFailedDeploys, parts.access.siteViewerOrToken, ({ site, query }) =>
    listFailedDeploys(db, site.id, query),
  );

  parts.handle(api.getRelease, viewable, ({ release, site }) => getRelease(db, config, site, release.id));

  /** The release of the path, for a caller who may upload to its site (its site token too). */
  const publishable: Guard<{ release: Release; site: Database['sites'] }> = async (actor, params) => {
    const release = await findRelease(db, param(params, 'releaseId'));
    return { release, site: await mustUploadToSite(db, actor, release.site_id) };
  };

  parts.handle(api.publishRelease, publishable, async ({ actor, release, site, body }) => {
    const branch = await db.transaction().execute(async (trx) => {
      const name = body.branch ?? (await mainBranchName(trx, site));
      const origin = auditOrigin({ uploader: await uploaderOf(trx, actor), source: {} });
      return pointBranchNamed(trx, site, name, release, { actorId: personOf(actor), ...origin });
    });
    return toBranch(config, site, branch);
  });

  parts.handle(api.listReleaseFiles, viewable, ({ release, query }) => listReleaseFiles(db, release.id, query, query));

  parts.handle(api.downloadRelease, viewable, ({ release, site, reply }) =>
    reply
      .header('content-type', 'application/gzip')
      .header('content-disposition', contentDisposition(archiveName(site.name, release)))
      .header('cache-control', 'no-store')
      .send(releaseArchive(db, parts.blobs, release.id)),
  );

  parts.handle(api.renameRelease, manageable, async ({ actor, release, site, body }) => {
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('releases').set({ name: body.name }).where('id', '=', release.id).execute();
      await recordEvent(trx, {
        name: 'site_release_renamed',
        actorId: userOf(actor),
        ...siteScope(site),
        data: { releaseId: release.id, name: body.name, previousName: release.name },
      });
    });
    return getRelease(db, config, site, release.id);
  });

  /** Sets or removes the release's own password, with its event (which has the edge read the release again). */
  const changePassword = async (
    { actor, release, site }: { actor: Parameters<typeof userOf>[0]; release: Release; site: Database['sites'] },
    columns: { password_hash: string | null; password_version: string | null },
  ) => {
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('releases').set(columns).where('id', '=', release.id).execute();
      await recordEvent(trx, {
        name: columns.password_hash ? 'site_release_password_set' : 'site_release_password_removed',
        actorId: userOf(actor),
        ...siteScope(site),
        data: { releaseId: release.id, name: release.name },
      });
    });
    return getRelease(db, config, site, release.id);
  };
  parts.handle(api.setReleasePassword, manageable, async (input) =>
    changePassword(input, await newPasswordColumns(input.body.password)),
  );
  parts.handle(api.removeReleasePassword, manageable, (input) =>
    changePassword(input, { password_hash: null, password_version: null }),
  );

  parts.handle(api.deleteRelease, manageable, async ({ actor, release, site }) => {
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
  parts.handle(api.setReleaseForms, manageable, async ({ release, site, body }) => {
    await db.transaction().execute(async (trx) => {
      const serving = await trx.selectFrom('branches').select('id').where('release_id', '=', release.id).execute();
      await setFormsSeenBy(
        trx,
        site.id,
        serving.map((branch) => branch.id),
        body.forms,
      );
    });
    return getRelease(db, config, site, release.id);
  });
}
