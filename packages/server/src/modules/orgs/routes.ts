import { api } from '@wharf/contract';
import type { Guard } from '../../access/guards.ts';
import { userOf } from '../../access/rules.ts';
import { feature } from '../../features/feature.ts';
import type { PartsOf } from '../../features/parts.ts';
import { httpError } from '../../http/errors.ts';
import { mayCreateOrgs } from '../auth/users.ts';
import { getOrg, listOrgsOfUser } from './queries.ts';
import { createOrg, updateOrg } from './service.ts';

const needs = ['access', 'config', 'db', 'handle'] as const;

function orgRoutes(parts: PartsOf<(typeof needs)[number]>) {
  const { access } = parts;
  parts.handle(api.listOrgs, access.person, ({ userId }) => listOrgsOfUser(parts.db, userId));

  /** A person this installation lets create organizations. */
  const orgCreator: Guard<{ userId: string }> = async (actor) => {
    const userId = userOf(actor);
    if (!(await mayCreateOrgs(parts.db, parts.config.signIn.orgCreators, userId)))
      throw httpError(
        'ORG_CREATION_NOT_ALLOWED',
        'This installation lets only some people create organizations; ask an organization admin to invite you',
      );
    return { userId };
  };

  parts.handle(api.createOrg, orgCreator, ({ userId, body }) => createOrg(parts.db, userId, body));

  parts.handle(api.getOrg, access.orgMember, ({ params }) => getOrg(parts.db, params.orgId));

  parts.handle(api.updateOrg, access.orgAdmin, ({ actor, params, body }) =>
    updateOrg(parts.db, userOf(actor), params.orgId, body),
  );

  parts.handle(api.getCurrentMember, access.orgMember, ({ member }) => {
    return { _id: member.id, admin: member.admin === 1, owner: member.owner === 1 };
  });
}

/** Organizations. */
export const orgsFeature = feature({ name: 'orgs', needs, routes: orgRoutes });
