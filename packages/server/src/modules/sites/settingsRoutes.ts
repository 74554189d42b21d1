import { api } from '@wharf/contract';
import { mustManageSite, mustSeeSite, userOf } from '../../access/rules.ts';
import { recordEvent } from '../../events/outbox.ts';
import { randomString } from '../../lib/ids.ts';
import { hashPassword } from '../../lib/passwords.ts';
import type { WharfApp } from '../../wharfApp.ts';
import { getSite } from './queries.ts';
import { siteScope } from './siteEvents.ts';
import { siteUsage } from './usage.ts';

/** Site headers, the site password and retention: settings that apply to every branch of the site. */
export function siteSettingsRoutes(app: WharfApp) {
  const { db, config } = app;

  app.handle(api.setSiteHeaders, async ({ actor, params, body }) => {
    const { site } = await mustManageSite(db, actor, params.siteId);
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable('sites')
        .set({ headers: JSON.stringify(body.headers) })
        .where('id', '=', site.id)
        .execute();
      await recordEvent(trx, {
        name: 'site_updated',
        actorId: userOf(actor),
        ...siteScope(site),
        data: { headers: body.headers.map((h) => h.name) },
      });
    });
    return body.headers;
  });

  app.handle(api.setSitePassword, async ({ actor, params, body }) => {
    const { site } = await mustManageSite(db, actor, params.siteId);
    const passwordHash = await hashPassword(body.password);
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable('sites')
        .set({ password_hash: passwordHash, password_version: randomString(12) })
        .where('id', '=', site.id)
        .execute();
      await recordEvent(trx, { name: 'site_password_set', actorId: userOf(actor), ...siteScope(site), data: {} });
    });
    return getSite(db, config, site.id);
  });

  app.handle(api.removeSitePassword, async ({ actor, params }) => {
    const { site } = await mustManageSite(db, actor, params.siteId);
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable('sites')
        .set({ password_hash: null, password_version: null })
        .where('id', '=', site.id)
        .execute();
      await recordEvent(trx, { name: 'site_password_removed', actorId: userOf(actor), ...siteScope(site), data: {} });
    });
    return getSite(db, config, site.id);
  });

  app.handle(api.setSiteRetention, async ({ actor, params, body }) => {
    const { site } = await mustManageSite(db, actor, params.siteId);
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable('sites')
        .set({ keep_releases_days: body.keepReleasesDays, keep_releases_count: body.keepReleasesCount })
        .where('id', '=', site.id)
        .execute();
      await recordEvent(trx, {
        name: 'site_updated',
        actorId: userOf(actor),
        ...siteScope(site),
        data: { retention: body },
      });
    });
    return getSite(db, config, site.id);
  });

  app.handle(api.getSiteUsage, async ({ actor, params }) => {
    const { site } = await mustSeeSite(db, actor, params.siteId);
    return siteUsage(db, site.id);
  });
}
