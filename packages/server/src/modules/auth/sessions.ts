import type { FastifyReply } from 'fastify';
import { SESSION_COOKIE } from '../../access/actor.ts';
import type { Db } from '../../db/schema.ts';
import type { PartsOf } from '../../features/parts.ts';
import { newSecret, now } from '../../lib/ids.ts';
import { lookupHash } from '../../lib/secrets.ts';

/** Opens a session for a user and hands its id to the browser in an httpOnly cookie. */
export async function startSession(
  parts: PartsOf<'config' | 'db'>,
  reply: FastifyReply,
  userId: string,
  identityId: string,
) {
  const sessionId = newSecret();
  const expiresAt = new Date(Date.now() + parts.config.sessionTtlMs);
  await parts.db
    .insertInto('sessions')
    .values({
      id_hash: lookupHash(sessionId),
      user_id: userId,
      identity_id: identityId,
      created_at: now(),
      expires_at: expiresAt.toISOString(),
    })
    .execute();
  reply.setCookie(SESSION_COOKIE, sessionId, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: parts.config.url.protocol === 'https:',
    expires: expiresAt,
  });
}

export function clearSessionCookie(reply: FastifyReply) {
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
}

export async function endSession(db: Db, sessionHash: string) {
  await db.deleteFrom('sessions').where('id_hash', '=', sessionHash).execute();
}

export async function endAllSessions(db: Db, userId: string) {
  await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
}
