import type { FastifyRequest } from 'fastify';
import { reusableLookup } from '../db/reusableQuery.ts';
import type { Db } from '../db/schema.ts';
import { httpError } from '../http/errors.ts';
import { readJson } from '../lib/json.ts';
import { lookupHash } from '../lib/secrets.ts';

export const SESSION_COOKIE = 'wharf_session';
export const API_TOKEN_PREFIX = 'wharf_api_';
export const SITE_TOKEN_PREFIX = 'wharf_site_';

/** Who is calling: nobody, a signed-in session, a user's API token, or a site's upload token. */
export type Actor =
  | { kind: 'anonymous'; userId: null }
  | { kind: 'session'; userId: string; sessionHash: string; identityId: string | null }
  | {
      kind: 'apiToken';
      userId: string;
      tokenId: string;
      scopes: string[];
      activatesAt: string;
      expiresAt: string | null;
    }
  | { kind: 'siteToken'; userId: null; tokenId: string; siteId: string };

export const anonymous: Actor = { kind: 'anonymous', userId: null };

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match?.[1]) throw httpError('AUTHORIZATION_MALFORMED', 'The Authorization header must be "Bearer <token>"');
  return match[1];
}

export async function resolveActor(db: Db, request: FastifyRequest): Promise<Actor> {
  const token = bearerToken(request);
  if (token) return resolveToken(db, token);
  const sessionId = request.cookies[SESSION_COOKIE];
  return sessionId ? ((await sessionActor(db, sessionId)) ?? anonymous) : anonymous;
}

/** The signed-in user of a session cookie's value, while the session lasts. */
const sessionByHash = reusableLookup((db, sessionHash: string) =>
  db.selectFrom('sessions').select(['user_id', 'identity_id', 'expires_at']).where('id_hash', '=', sessionHash),
);

export async function sessionActor(db: Db, sessionId: string): Promise<Actor | null> {
  const sessionHash = lookupHash(sessionId);
  const session = await sessionByHash(db, sessionHash);
  if (!session || session.expires_at <= new Date().toISOString()) return null;
  return { kind: 'session', userId: session.user_id, sessionHash, identityId: session.identity_id };
}

async function resolveToken(db: Db, token: string): Promise<Actor> {
  const hash = lookupHash(token);
  if (token.startsWith(SITE_TOKEN_PREFIX)) {
    const row = await db
      .selectFrom('site_tokens')
      .select(['id', 'site_id'])
      .where('value_hash', '=', hash)
      .executeTakeFirst();
    if (row) return { kind: 'siteToken', userId: null, tokenId: row.id, siteId: row.site_id };
  } else if (token.startsWith(API_TOKEN_PREFIX)) {
    const row = await db
      .selectFrom('api_tokens')
      .select(['id', 'user_id', 'scopes', 'activates_at', 'expires_at'])
      .where('value_hash', '=', hash)
      .executeTakeFirst();
    if (row) {
      return {
        kind: 'apiToken',
        userId: row.user_id,
        tokenId: row.id,
        scopes: readJson<string[]>(row.scopes),
        activatesAt: row.activates_at,
        expiresAt: row.expires_at,
      };
    }
  }
  throw httpError('TOKEN_INVALID', 'The token is not valid');
}
