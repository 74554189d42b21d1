import type { Db } from '../db/schema.ts';
import type { Actor } from './actor.ts';
import {
  mustAdminOrg,
  mustAdminSite,
  mustAdminTeam,
  mustBeOrgMember,
  mustManageSite,
  mustOwnOrg,
  mustSeeSite,
  mustSeeSiteOrItsToken,
  mustSeeTeam,
  mustUploadToSite,
  userOf,
} from './rules.ts';

/**
 * Who may call a route, decided from the caller and the path alone: it runs before any of the
 * body or query is read, so every refusal (401, 403, 404) comes before any 400. What it found
 * (the site, the member) is handed to the route's handler, which never looks it up again.
 * Path parameters arrive as sent, not yet validated: an id of the wrong shape is simply not found.
 */
export type Guard<T extends object = object> = (actor: Actor, params: PathParams) => Promise<T>;

export type PathParams = Readonly<Record<string, string | undefined>>;

/** A path parameter as sent; an absent one names nothing. */
export const param = (params: PathParams, name: string) => params[name] ?? '';

/**
 * Marks a guard whose route answers every caller alike: the caller is then not even looked up (no
 * session read, no token hashed), which is most of what such a route costs.
 */
export const ANSWERS_ALIKE = Symbol('answers every caller alike');

/** The guards most routes use, by the role they ask for, over one database. */
export function accessGuards(db: Db) {
  return {
    /** Anybody, signed in or not (the route's `auth` already said who may call at all). */
    anyone: (async () => ({})) as Guard<object>,
    /** Anybody, on a public route whose answer is the same whoever calls. */
    everyone: Object.assign((async () => ({})) as Guard<object>, { [ANSWERS_ALIKE]: true }),
    /** A person: a session or their API token. */
    person: (async (actor) => ({ userId: userOf(actor) })) as Guard<{ userId: string }>,
    orgMember: (async (actor, params) => ({
      member: await mustBeOrgMember(db, actor, param(params, 'orgId')),
    })) satisfies Guard,
    orgAdmin: (async (actor, params) => ({
      member: await mustAdminOrg(db, actor, param(params, 'orgId')),
    })) satisfies Guard,
    orgOwner: (async (actor, params) => ({
      member: await mustOwnOrg(db, actor, param(params, 'orgId')),
    })) satisfies Guard,
    teamViewer: (async (actor, params) => mustSeeTeam(db, actor, param(params, 'teamId'))) satisfies Guard,
    teamAdmin: (async (actor, params) => mustAdminTeam(db, actor, param(params, 'teamId'))) satisfies Guard,
    siteViewer: (async (actor, params) => mustSeeSite(db, actor, param(params, 'siteId'))) satisfies Guard,
    siteManager: (async (actor, params) => mustManageSite(db, actor, param(params, 'siteId'))) satisfies Guard,
    siteAdmin: (async (actor, params) => mustAdminSite(db, actor, param(params, 'siteId'))) satisfies Guard,
    /** A site token of this site, or a person who manages it. */
    siteUploader: (async (actor, params) => ({
      site: await mustUploadToSite(db, actor, param(params, 'siteId')),
    })) satisfies Guard,
    /** A site token of this site, or a person who may see it. */
    siteViewerOrToken: (async (actor, params) => ({
      site: await mustSeeSiteOrItsToken(db, actor, param(params, 'siteId')),
    })) satisfies Guard,
  };
}

export type AccessGuards = ReturnType<typeof accessGuards>;
