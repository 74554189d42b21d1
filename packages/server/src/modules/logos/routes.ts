import { api, type EventName, type Route } from '@wharf/contract';
import type { Actor } from '../../access/actor.ts';
import type { Guard } from '../../access/guards.ts';
import { mustAdminOrg, mustAdminTeam, mustManageSite, userOf } from '../../access/rules.ts';
import type { Executor } from '../../db/schema.ts';
import { recordEvent } from '../../events/outbox.ts';
import { feature } from '../../features/feature.ts';
import type { PartsOf } from '../../features/parts.ts';
import { httpError } from '../../http/errors.ts';
import { randomString } from '../../lib/ids.ts';
import { readLogo } from './images.ts';
import { type LogoOwnerKind, logoBlobKey, logoUrl } from './logoUrl.ts';

interface Scope {
  orgId: string;
  teamId?: string;
  siteId?: string;
}

interface LogoOwner {
  table: LogoOwnerKind;
  param: 'orgId' | 'teamId' | 'siteId';
  routes: { set: Route; remove: Route; get: Route };
  events: { set: EventName; removed: EventName };
  /** Checks the caller may change the logo and tells where the events belong. */
  authorize(db: Executor, actor: Actor, id: string): Promise<Scope>;
}

const owners: LogoOwner[] = [
  {
    table: 'orgs',
    param: 'orgId',
    routes: { set: api.setOrgLogo, remove: api.removeOrgLogo, get: api.getOrgLogo },
    events: { set: 'org_logo_set', removed: 'org_logo_removed' },
    authorize: async (db, actor, id) => {
      await mustAdminOrg(db, actor, id);
      return { orgId: id };
    },
  },
  {
    table: 'teams',
    param: 'teamId',
    routes: { set: api.setTeamLogo, remove: api.removeTeamLogo, get: api.getTeamLogo },
    events: { set: 'team_logo_set', removed: 'team_logo_removed' },
    authorize: async (db, actor, id) => {
      const { team } = await mustAdminTeam(db, actor, id);
      return { orgId: team.org_id, teamId: team.id };
    },
  },
  {
    table: 'sites',
    param: 'siteId',
    routes: { set: api.setSiteLogo, remove: api.removeSiteLogo, get: api.getSiteLogo },
    events: { set: 'site_logo_set', removed: 'site_logo_removed' },
    authorize: async (db, actor, id) => {
      const { site } = await mustManageSite(db, actor, id);
      return { orgId: site.org_id, teamId: site.team_id, siteId: site.id };
    },
  },
];

const needs = ['access', 'blobs', 'db', 'handle'] as const;

function logoRoutes(parts: PartsOf<(typeof needs)[number]>) {
  for (const owner of owners) bindLogoRoutes(parts, owner);
}

function bindLogoRoutes(
  parts: PartsOf<'access' | 'blobs' | 'db' | 'handle'>,
  { table, param, routes, events, authorize }: LogoOwner,
) {
  const idOf = (params: unknown) => (params as Record<string, string>)[param]!;
  /** The owner of the path's logo, for a caller who may change it. */
  const changer = (async (actor, params) => ({
    scope: await authorize(parts.db, actor, idOf(params)),
  })) satisfies Guard;

  parts.handle(routes.set, changer, async ({ actor, scope, params, request }) => {
    const id = idOf(params);
    const { bytes, type } = await readLogo(request);
    const version = randomString(8);
    await parts.blobs.put(logoBlobKey(table, id), bytes);
    await parts.db.transaction().execute(async (trx) => {
      await trx.updateTable(table).set({ logo_type: type, logo_version: version }).where('id', '=', id).execute();
      await recordEvent(trx, {
        name: events.set,
        actorId: userOf(actor),
        ...scope,
        data: { type, size: bytes.length },
      });
    });
    return { logo: logoUrl(table, id, version)! };
  });

  parts.handle(routes.remove, changer, async ({ actor, scope, params }) => {
    const id = idOf(params);
    await parts.db.transaction().execute(async (trx) => {
      await trx.updateTable(table).set({ logo_type: null, logo_version: null }).where('id', '=', id).execute();
      await recordEvent(trx, { name: events.removed, actorId: userOf(actor), ...scope, data: {} });
    });
    await parts.blobs.remove(logoBlobKey(table, id));
  });

  parts.handle(routes.get, parts.access.anyone, async ({ params, request, reply }) => {
    const id = idOf(params);
    const row = await parts.db
      .selectFrom(table)
      .select(['logo_type', 'logo_version'])
      .where('id', '=', id)
      .executeTakeFirst();
    const stream = row?.logo_type ? await parts.blobs.read(logoBlobKey(table, id)) : null;
    if (!row?.logo_type || !stream) throw httpError('LOGO_NOT_FOUND', 'Logo not found');
    return (
      reply
        .header('content-type', row.logo_type)
        // The versioned URL the API hands out never changes content; any other may.
        .header(
          'cache-control',
          (request.query as { v?: string }).v === row.logo_version ? 'public, max-age=31536000, immutable' : 'no-cache',
        )
        .header('x-content-type-options', 'nosniff')
        .send(stream)
    );
  });
}

/** Logos of organizations, teams and sites. */
export const logosFeature = feature({ name: 'logos', needs, routes: logoRoutes });
