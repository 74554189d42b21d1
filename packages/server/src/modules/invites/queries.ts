import type { Invite } from '@wharf/contract';
import type { Database, Executor } from '../../db/schema.ts';
import { httpError } from '../../http/errors.ts';
import { lookupHash } from '../../lib/secrets.ts';

export function toInvite(row: Database['invites']): Invite {
  return {
    _id: row.id,
    email: row.email,
    expiresAt: row.expires_at,
    memberOptions: { admin: row.admin === 1 },
    createdAt: row.created_at,
  };
}

export async function listInvites(db: Executor, orgId: string) {
  const rows = await db
    .selectFrom('invites')
    .selectAll()
    .where('org_id', '=', orgId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map(toInvite);
}

/** The invite a token stands for; a token that matches nothing is as good as none. */
export async function findInviteByToken(db: Executor, token: string) {
  const row = await db.selectFrom('invites').selectAll().where('token_hash', '=', lookupHash(token)).executeTakeFirst();
  if (!row) throw httpError('INVITE_NOT_FOUND', 'Invitation not found');
  return row;
}

/** The invite behind an id, provided the caller holds its token; an expired one answers 410. */
export async function usableInvite(db: Executor, inviteId: string, token: string) {
  const row = await findInviteByToken(db, token);
  if (row.id !== inviteId) throw httpError('INVITE_NOT_FOUND', 'Invitation not found');
  if (row.expires_at <= new Date().toISOString()) throw httpError('INVITE_EXPIRED', 'This invitation has expired');
  return row;
}
