import { api, type EventName, type Route } from '@wharf/contract';
import type { Actor } from '../../access/actor.ts';
import type { Guard } from '../../access/guards.ts';
import { mustAdminOrg, mustAdminTeam, mustManageSite, userOf } from '../../access/rules.ts';
import type { Executor } from '../../db/schema.ts';
import { recordEvent } from '../../events/outbox.ts';
import { httpError } from '../../http/errors.ts';
import { randomString } from '../../lib/ids.ts';
import type { WharfApp } from '../../wharfApp.ts';
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

export function logoRoutes(app: WharfApp) {
  for (const owner of owners) bindLogoRoutes(app, owner);
}

function bindLogoRoutes(app: WharfApp, { table, param, routes, events, authorize }: LogoOwner) {
  const idOf = (params: unknown) => (params as Record<string, string>)[param]!;
  /** The owner of the path's logo, for a caller who may change it. */
  const changer = (async (actor, params) => ({ scope: await authorize(app.db, actor, idOf(params)) })) satisfies Guard;

  app.handle(routes.set, changer, async ({ actor, scope, params, request }) => {
    const id = idOf(params);
    const { bytes, type } = await readLogo(request);
    const version = randomString(8);
    await app.blobs.put(logoBlobKey(table, id), bytes);
    await app.db.transaction().execute(async (trx) => {
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

  app.handle(routes.remove, changer, async ({ actor, scope, params }) => {
    const id = idOf(params);
    await app.db.transaction().execute(async (trx) => {
      await trx.updateTable(table).set({ logo_type: null, logo_version: null }).where('id', '=', id).execute();
      await recordEvent(trx, { name: events.removed, actorId: userOf(actor), ...scope, data: {} });
    });
    await app.blobs.remove(logoBlobKey(table, id));
  });

  app.handle(routes.get, app.access.anyone, async ({ params, request, reply }) => {
    const id = idOf(params);
    const row = await app.db
      .selectFrom(table)
      .select(['logo_type', 'logo_version'])
      .where('id', '=', id)
      .executeTakeFirst();
    const stream = row?.logo_type ? await app.blobs.read(logoBlobKey(table, id)) : null;
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
