import { api } from '@wharf/contract';
import { hashPassword } from '@wharf/contract/passwords';
import type { Updateable } from 'kysely';
import type { Actor } from '../../access/actor.ts';
import { userOf } from '../../access/rules.ts';
import type { Database, Db } from '../../db/schema.ts';
import { recordEvent } from '../../events/outbox.ts';
import type { PartsOf } from '../../features/parts.ts';
import { randomString } from '../../lib/ids.ts';
import { getSite } from './queries.ts';
import { siteScope } from './siteEvents.ts';
import { siteUsage } from './usage.ts';

type SiteEvent = 'site_updated' | 'site_password_set' | 'site_password_removed';

/** Sets columns of a site and records the event that says so, in one transaction. */
async function updateSite(
  db: Db,
  actor: Actor,
  site: Pick<Database['sites'], 'id' | 'org_id' | 'team_id'>,
  values: Updateable<Database['sites']>,
  event: { name: SiteEvent; data: Record<string, unknown> },
) {
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('sites').set(values).where('id', '=', site.id).execute();
    await recordEvent(trx, { ...event, actorId: userOf(actor), ...siteScope(site) });
  });
}

/** Site headers, the site password and retention: settings that apply to every branch of the site. */
export function siteSettingsRoutes(parts: PartsOf<'access' | 'config' | 'db' | 'handle'>) {
  const { db, config, access } = parts;

  parts.handle(api.setSiteHeaders, access.siteManager, async ({ actor, site, body }) => {
    await updateSite(
      db,
      actor,
      site,
      { headers: JSON.stringify(body.headers) },
      { name: 'site_updated', data: { headers: body.headers.map((h) => h.name) } },
    );
    return body.headers;
  });

  parts.handle(api.setSitePassword, access.siteManager, async ({ actor, site, body }) => {
    const passwordHash = await hashPassword(body.password);
    await updateSite(
      db,
      actor,
      site,
      { password_hash: passwordHash, password_version: randomString(12) },
      { name: 'site_password_set', data: {} },
    );
    return getSite(db, config, site.id);
  });

  parts.handle(api.removeSitePassword, access.siteManager, async ({ actor, site }) => {
    await updateSite(
      db,
      actor,
      site,
      { password_hash: null, password_version: null },
      { name: 'site_password_removed', data: {} },
    );
    return getSite(db, config, site.id);
  });

  parts.handle(api.setSiteRetention, access.siteManager, async ({ actor, site, body }) => {
    await updateSite(
      db,
      actor,
      site,
      { keep_releases_days: body.keepReleasesDays, keep_releases_count: body.keepReleasesCount },
      { name: 'site_updated', data: { retention: body } },
    );
    return getSite(db, config, site.id);
  });

  parts.handle(api.getSiteUsage, access.siteViewer, ({ site }) => siteUsage(db, site.id));
}
