import { api } from '@wharf/contract';
import { mustAdminOrg, mustBeOrgMember, userOf } from '../../access/rules.ts';
import { httpError } from '../../http/errors.ts';
import type { WharfApp } from '../../wharfApp.ts';
import { mayCreateOrgs } from '../auth/users.ts';
import { getOrg, listOrgsOfUser } from './queries.ts';
import { createOrg, updateOrg } from './service.ts';

export function orgRoutes(app: WharfApp) {
  app.handle(api.listOrgs, ({ actor }) => listOrgsOfUser(app.db, userOf(actor)));

  app.handle(
    api.createOrg,
    ({ actor, body }) => createOrg(app.db, userOf(actor), body),
    async (actor) => {
      if (!(await mayCreateOrgs(app.db, app.config.signIn.orgCreators, userOf(actor))))
        throw httpError(
          'ORG_CREATION_NOT_ALLOWED',
          'This installation lets only some people create organizations; ask an organization admin to invite you',
        );
    },
  );

  app.handle(api.getOrg, async ({ actor, params }) => {
    await mustBeOrgMember(app.db, actor, params.orgId);
    return getOrg(app.db, params.orgId);
  });

  app.handle(api.updateOrg, async ({ actor, params, body }) => {
    await mustAdminOrg(app.db, actor, params.orgId);
    return updateOrg(app.db, userOf(actor), params.orgId, body);
  });

  app.handle(api.getCurrentMember, async ({ actor, params }) => {
    const member = await mustBeOrgMember(app.db, actor, params.orgId);
    return { _id: member.id, admin: member.admin === 1, owner: member.owner === 1 };
  });
}
