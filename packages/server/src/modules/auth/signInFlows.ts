import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import * as client from 'openid-client';
import type { PartsOf } from '../../features/parts.ts';
import { now } from '../../lib/ids.ts';
import { lookupHash } from '../../lib/secrets.ts';
import type { FlowSecrets } from './providers/provider.ts';

/**
 * The browser's half of a flow: the state, in an httpOnly cookie scoped to /auth/. A callback is
 * believed only in the browser that started it (no one can hand a victim their own callback), and
 * only once: the server's half (PKCE verifier, nonce) is a row the callback deletes.
 */
const FLOW_COOKIE = 'wharf_sign_in';
const FLOW_TTL_MS = 10 * 60_000;

export function redirectUriOf(parts: PartsOf<'config' | 'db' | 'sealer'>, providerId: string) {
  return new URL(`/auth/${providerId}/callback`, parts.config.url).href;
}

export async function startFlow(
  parts: PartsOf<'config' | 'db' | 'sealer'>,
  reply: FastifyReply,
  providerId: string,
  linkUserId: string | null,
  returnTo: string | null = null,
): Promise<FlowSecrets> {
  const flow = {
    state: client.randomState(),
    codeVerifier: client.randomPKCECodeVerifier(),
    nonce: client.randomNonce(),
    redirectUri: redirectUriOf(parts, providerId),
  };
  const expiresAt = new Date(Date.now() + FLOW_TTL_MS);
  await parts.db.deleteFrom('sign_in_flows').where('expires_at', '<', now()).execute();
  await parts.db
    .insertInto('sign_in_flows')
    .values({
      state_hash: lookupHash(flow.state),
      provider: providerId,
      code_verifier_sealed: parts.sealer.seal(flow.codeVerifier),
      nonce: flow.nonce,
      link_user_id: linkUserId,
      return_to: returnTo,
      expires_at: expiresAt.toISOString(),
    })
    .execute();
  reply.setCookie(FLOW_COOKIE, flow.state, {
    path: '/auth/',
    httpOnly: true,
    sameSite: 'lax',
    secure: parts.config.url.protocol === 'https:',
    expires: expiresAt,
  });
  return flow;
}

export type SpentFlow =
  | { ok: true; flow: FlowSecrets; linkUserId: string | null; returnTo: string | null }
  | { ok: false; code: 'SIGN_IN_STATE_MISMATCH' | 'SIGN_IN_EXPIRED' };

function sameText(a: string, b: string) {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Spends the flow a callback answers: its state must be this browser's, and the flow unused and fresh. */
export async function spendFlow(
  parts: PartsOf<'config' | 'db' | 'sealer'>,
  request: FastifyRequest,
  reply: FastifyReply,
  providerId: string,
  state: string | undefined,
): Promise<SpentFlow> {
  const browserState = request.cookies[FLOW_COOKIE];
  reply.clearCookie(FLOW_COOKIE, { path: '/auth/' });
  if (!state || !browserState || !sameText(browserState, state)) return { ok: false, code: 'SIGN_IN_STATE_MISMATCH' };
  const row = await parts.db
    .deleteFrom('sign_in_flows')
    .where('state_hash', '=', lookupHash(state))
    .returningAll()
    .executeTakeFirst();
  if (!row || row.expires_at <= now()) return { ok: false, code: 'SIGN_IN_EXPIRED' };
  if (row.provider !== providerId) return { ok: false, code: 'SIGN_IN_STATE_MISMATCH' };
  return {
    ok: true,
    linkUserId: row.link_user_id,
    returnTo: row.return_to,
    flow: {
      state,
      codeVerifier: parts.sealer.open(row.code_verifier_sealed),
      nonce: row.nonce,
      redirectUri: redirectUriOf(parts, providerId),
    },
  };
}
