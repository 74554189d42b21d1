import { api, type SiteToken } from '@wharf/contract';
import { SITE_TOKEN_PREFIX } from '../../access/actor.ts';
import { type Guard, param } from '../../access/guards.ts';
import { userOf } from '../../access/rules.ts';
import type { Database } from '../../db/schema.ts';
import { recordEvent } from '../../events/outbox.ts';
import { feature } from '../../features/feature.ts';
import type { PartsOf } from '../../features/parts.ts';
import { httpError } from '../../http/errors.ts';
import { newId, newSecret, now } from '../../lib/ids.ts';
import { lookupHash, type Sealer } from '../../lib/secrets.ts';
import { siteScope } from '../sites/siteEvents.ts';

function toSiteToken(sealer: Sealer, row: Database['site_tokens']): SiteToken {
  return { _id: row.id, name: row.name, createdAt: row.created_at, value: sealer.open(row.value_sealed) };
}

const needs = ['access', 'db', 'handle', 'sealer'] as const;

/** Upload tokens: each authorises only release uploads to its own site. */
function siteTokenRoutes(parts: PartsOf<(typeof needs)[number]>) {
  const { db, sealer, access } = parts;

  parts.handle(api.listSiteTokens, access.siteManager, async ({ site }) => {
    const rows = await db
      .selectFrom('site_tokens')
      .selectAll()
      .where('site_id', '=', site.id)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map((row) => toSiteToken(sealer, row));
  });

  parts.handle(api.createSiteToken, access.siteManager, async ({ actor, site, body }) => {
    const value = newSecret(SITE_TOKEN_PREFIX);
    const row = {
      id: newId(),
      site_id: site.id,
      name: body.name,
      value_sealed: sealer.seal(value),
      value_hash: lookupHash(value),
      created_at: now(),
    };
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('site_tokens').values(row).execute();
      await recordEvent(trx, {
        name: 'site_token_added',
        actorId: userOf(actor),
        ...siteScope(site),
        data: { tokenId: row.id, name: row.name },
      });
    });
    return toSiteToken(sealer, row);
  });

  /** A token of the path's site, for those who manage the site. */
  const siteToken = (async (actor, params) => {
    const granted = await access.siteManager(actor, params);
    const row = await db
      .selectFrom('site_tokens')
      .select('id')
      .where('id', '=', param(params, 'tokenId'))
      .where('site_id', '=', granted.site.id)
      .executeTakeFirst();
    if (!row) throw httpError('SITE_TOKEN_NOT_FOUND', 'Token not found');
    return granted;
  }) satisfies Guard;

  parts.handle(api.deleteSiteToken, siteToken, async ({ actor, site, params }) => {
    await db.transaction().execute(async (trx) => {
      const deleted = await trx
        .deleteFrom('site_tokens')
        .where('id', '=', params.tokenId)
        .where('site_id', '=', site.id)
        .returning('name')
        .executeTakeFirst();
      if (!deleted) throw httpError('SITE_TOKEN_NOT_FOUND', 'Token not found');
      await recordEvent(trx, {
        name: 'site_token_deleted',
        actorId: userOf(actor),
        ...siteScope(site),
        data: { tokenId: params.tokenId, name: deleted.name },
      });
    });
  });
}

/** The site tokens CI deploys with. */
export const siteTokensFeature = feature({ name: 'siteTokens', needs, routes: siteTokenRoutes });
