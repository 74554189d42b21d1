import { api } from '@wharf/contract';
import type { Guard } from '../../access/guards.ts';
import { userOf } from '../../access/rules.ts';
import { httpError } from '../../http/errors.ts';
import type { WharfApp } from '../../wharfApp.ts';
import { mayCreateOrgs } from '../auth/users.ts';
import { getOrg, listOrgsOfUser } from './queries.ts';
import { createOrg, updateOrg } from './service.ts';

export function orgRoutes(app: WharfApp) {
  const { access } = app;
  app.handle(api.listOrgs, access.person, ({ userId }) => listOrgsOfUser(app.db, userId));

  /** A person this installation lets create organizations. */
  const orgCreator: Guard<{ userId: string }> = async (actor) => {
    const userId = userOf(actor);
    if (!(await mayCreateOrgs(app.db, app.config.signIn.orgCreators, userId)))
      throw httpError(
        'ORG_CREATION_NOT_ALLOWED',
        'This installation lets only some people create organizations; ask an organization admin to invite you',
      );
    return { userId };
  };

  app.handle(api.createOrg, orgCreator, ({ userId, body }) => createOrg(app.db, userId, body));

  app.handle(api.getOrg, access.orgMember, ({ params }) => getOrg(app.db, params.orgId));

  app.handle(api.updateOrg, access.orgAdmin, ({ actor, params, body }) =>
    updateOrg(app.db, userOf(actor), params.orgId, body),
  );

  app.handle(api.getCurrentMember, access.orgMember, ({ member }) => {
    return { _id: member.id, admin: member.admin === 1, owner: member.owner === 1 };
  });
}
