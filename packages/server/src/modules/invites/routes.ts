import { api } from '@wharf/contract';
import { type Guard, param } from '../../access/guards.ts';
import { userOf } from '../../access/rules.ts';
import { feature } from '../../features/feature.ts';
import type { PartsOf } from '../../features/parts.ts';
import { httpError } from '../../http/errors.ts';
import { getOrg } from '../orgs/queries.ts';
import { findInviteByToken, listInvites, toInvite } from './queries.ts';
import { acceptInvite, createInvite, declineInvite, deleteInvite } from './service.ts';

const needs = ['access', 'config', 'db', 'handle', 'jobs', 'sealer'] as const;

function inviteRoutes(parts: PartsOf<(typeof needs)[number]>) {
  const { access } = parts;

  /** An invitation named by the path's id, for a person; its token (the body's) is checked by what uses it. */
  const invitation = (async (actor, params) => {
    const row = await parts.db
      .selectFrom('invites')
      .select('id')
      .where('id', '=', param(params, 'inviteId'))
      .executeTakeFirst();
    if (!row) throw httpError('INVITE_NOT_FOUND', 'Invitation not found');
    return { userId: userOf(actor) };
  }) satisfies Guard;

  /** An invitation of the path's organization, for its admins. */
  const orgInvitation = (async (actor, params) => {
    const { member } = await access.orgAdmin(actor, params);
    const row = await parts.db
      .selectFrom('invites')
      .select('id')
      .where('id', '=', param(params, 'inviteId'))
      .where('org_id', '=', member.org_id)
      .executeTakeFirst();
    if (!row) throw httpError('INVITE_NOT_FOUND', 'Invitation not found');
    return { member };
  }) satisfies Guard;

  /** The invitation whose token is the path's, for a person. */
  const invitationOfToken = (async (actor, params) => ({
    userId: userOf(actor),
    invite: await findInviteByToken(parts.db, param(params, 'token')),
  })) satisfies Guard;
  parts.handle(api.listInvites, access.orgAdmin, ({ params }) => listInvites(parts.db, params.orgId));

  parts.handle(api.createInvite, access.orgAdmin, async ({ actor, params, body }) => {
    const invite = await createInvite(parts.db, parts.sealer, {
      orgId: params.orgId,
      actorId: userOf(actor),
      email: body.email,
      admin: body.admin,
      ttlMs: parts.config.inviteTtlMs,
      consoleUrl: parts.config.url,
    });
    // The invitation's mail was queued with it: sent now rather than at the runner's next poll.
    void parts.jobs.wake();
    return invite;
  });

  parts.handle(api.deleteInvite, orgInvitation, async ({ actor, params }) => {
    if (!(await deleteInvite(parts.db, userOf(actor), params.orgId, params.inviteId)))
      throw httpError('INVITE_NOT_FOUND', 'Invitation not found');
  });

  // The invitee sees the invite even once expired, so the console can say so.
  parts.handle(api.getInvite, invitationOfToken, async ({ invite: row, params, body }) => {
    if (params.token !== body.token) throw httpError('INVITE_NOT_FOUND', 'Invitation not found');
    const org = await getOrg(parts.db, row.org_id);
    return { ...toInvite(row), org: { _id: org._id, name: org.name, color: org.color, logo: org.logo } };
  });

  parts.handle(api.acceptInvite, invitation, ({ actor, params, body }) =>
    acceptInvite(parts.db, actor, params.inviteId, body.token),
  );

  parts.handle(api.declineInvite, invitation, ({ userId, params, body }) =>
    declineInvite(parts.db, userId, params.inviteId, body.token),
  );
}

/** Invitations, sent by mail. */
export const invitesFeature = feature({ name: 'invites', needs, routes: inviteRoutes, after: ['mail'] });
