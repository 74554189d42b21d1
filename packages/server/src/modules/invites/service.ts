import type { Actor } from '../../access/actor.ts';
import { userOf } from '../../access/rules.ts';
import type { Db, Executor } from '../../db/schema.ts';
import { recordEvent } from '../../events/outbox.ts';
import { httpError } from '../../http/errors.ts';
import { newId, newSecret, now } from '../../lib/ids.ts';
import { lookupHash, type Sealer } from '../../lib/secrets.ts';
import { queueMail } from '../../mail/queue.ts';
import { getOrg } from '../orgs/queries.ts';
import { invitationMail } from './invitationMail.ts';
import { toInvite, usableInvite } from './queries.ts';

/**
 * Creates an invitation and, in the same transaction, queues the mail that brings its link to the
 * invitee (sent when mail is on; the console shows the link either way).
 */
export async function createInvite(
  db: Db,
  sealer: Sealer,
  input: { orgId: string; actorId: string; email: string; admin: boolean; ttlMs: number; consoleUrl: URL },
) {
  const token = newSecret();
  const row = {
    id: newId(),
    org_id: input.orgId,
    email: input.email,
    admin: input.admin ? 1 : 0,
    token_hash: lookupHash(token),
    expires_at: new Date(Date.now() + input.ttlMs).toISOString(),
    created_at: now(),
  };
  const url = new URL(`/invite?token=${encodeURIComponent(token)}`, input.consoleUrl).toString();
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('invites').values(row).execute();
    await recordEvent(trx, {
      name: 'org_invite_added',
      actorId: input.actorId,
      orgId: input.orgId,
      data: { inviteId: row.id, email: row.email, admin: input.admin },
    });
    const org = await trx.selectFrom('orgs').select('name').where('id', '=', input.orgId).executeTakeFirstOrThrow();
    const inviter = await trx.selectFrom('users').select('name').where('id', '=', input.actorId).executeTakeFirst();
    const mail = invitationMail({
      to: row.email,
      inviter: inviter?.name ?? 'Someone',
      orgName: org.name,
      admin: input.admin,
      url,
      expiresAt: row.expires_at,
    });
    await queueMail(trx, sealer, mail);
  });
  return { ...toInvite(row), token, url };
}

export async function deleteInvite(db: Db, actorId: string, orgId: string, inviteId: string) {
  return db.transaction().execute(async (trx) => {
    const deleted = await trx
      .deleteFrom('invites')
      .where('id', '=', inviteId)
      .where('org_id', '=', orgId)
      .returning('email')
      .executeTakeFirst();
    if (!deleted) return false;
    await recordEvent(trx, { name: 'org_invite_deleted', actorId, orgId, data: { inviteId, email: deleted.email } });
    return true;
  });
}

/**
 * Joins the invite's organization (as admin when the invite says so); the token is spent. Anyone
 * signed in who holds the link may accept it: the membership keeps the invited address and the
 * account that accepted (the session's, or the user's first one for a token), for the admins to see.
 */
export async function acceptInvite(db: Db, actor: Actor, inviteId: string, token: string) {
  const userId = userOf(actor);
  const orgId = await db.transaction().execute(async (trx) => {
    const invite = await usableInvite(trx, inviteId, token);
    const account = await acceptingAccount(trx, userId, actor.kind === 'session' ? actor.identityId : null);
    const existing = await trx
      .selectFrom('members')
      .select('id')
      .where('org_id', '=', invite.org_id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (existing) throw httpError('ALREADY_MEMBER', 'You are already a member of this organization');
    const memberId = newId();
    await trx.deleteFrom('invites').where('id', '=', invite.id).execute();
    await trx
      .insertInto('members')
      .values({
        id: memberId,
        org_id: invite.org_id,
        user_id: userId,
        admin: invite.admin,
        owner: 0,
        invite_email: invite.email,
        joined_provider: account?.provider ?? null,
        joined_login: account?.login ?? null,
        joined_email: account?.email ?? null,
        created_at: now(),
      })
      .execute();
    const event = { actorId: userId, orgId: invite.org_id };
    await recordEvent(trx, {
      ...event,
      name: 'org_invite_accepted',
      data: { inviteId: invite.id, email: invite.email, provider: account?.provider, login: account?.login },
    });
    await recordEvent(trx, {
      ...event,
      name: 'org_member_joined',
      data: { memberId, userId, admin: invite.admin === 1 },
    });
    return invite.org_id;
  });
  return getOrg(db, orgId);
}

function acceptingAccount(trx: Executor, userId: string, identityId: string | null) {
  let query = trx.selectFrom('identities').select(['provider', 'login', 'email']).where('user_id', '=', userId);
  query = identityId ? query.where('id', '=', identityId) : query.orderBy('created_at').orderBy('id');
  return query.executeTakeFirst();
}

export async function declineInvite(db: Db, userId: string, inviteId: string, token: string) {
  await db.transaction().execute(async (trx) => {
    const invite = await usableInvite(trx, inviteId, token);
    await trx.deleteFrom('invites').where('id', '=', invite.id).execute();
    await recordEvent(trx, {
      name: 'org_invite_declined',
      actorId: userId,
      orgId: invite.org_id,
      data: { inviteId: invite.id, email: invite.email },
    });
  });
}
