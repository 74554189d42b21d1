import { api } from '@wharf/contract';
import type { Actor } from '../../access/actor.ts';
import { type Guard, param } from '../../access/guards.ts';
import { feature } from '../../features/feature.ts';
import type { PartsOf } from '../../features/parts.ts';
import { httpError } from '../../http/errors.ts';
import { GuessThrottle } from '../../lib/guessThrottle.ts';
import { listIdentities, signInWith, unlinkIdentity } from './identities.ts';
import { checkPassword, ensureFirstAdmin, hasPasswordLogins } from './passwordLogins.ts';
import { providerRoutes } from './providerRoutes.ts';
import { signInMethods } from './providers/registry.ts';
import { repositoryAccessRoutes } from './repositoryAccess.ts';
import { clearSessionCookie, endAllSessions, endSession, startSession } from './sessions.ts';
import { getUser } from './users.ts';

const needs = ['access', 'config', 'counters', 'db', 'fastify', 'handle', 'log', 'sealer'] as const;

function authRoutes(parts: PartsOf<(typeof needs)[number]>) {
  const { signIn } = parts.config;
  // Failures slow the next attempts of their address and of their name: neither one client nor
  // many can grind an account, and its owner still gets in.
  const guesses = new GuessThrottle(parts.counters, 'sign-ins');
  const passwordsOn = async () => signIn.passwords && (await hasPasswordLogins(parts));

  parts.handle(api.getAuthMethods, parts.access.everyone, async () => signInMethods(signIn, await passwordsOn()));

  parts.handle(api.signInInMemory, parts.access.anyone, async ({ body, request, reply }) => {
    if (!signIn.passwords)
      throw httpError('SIGN_IN_METHOD_OFF', 'Signing in with a user name and password is turned off here');
    const outcome = await guesses.attempt(request.ip ?? 'unknown', body.user, () =>
      checkPassword(parts, body.user, body.password),
    );
    if (outcome === 'busy')
      throw httpError('RATE_LIMITED', 'Too many sign-in attempts at once for this user or address; try again shortly');
    if (outcome === 'wrong') throw httpError('CREDENTIALS_WRONG', 'Wrong user name or password');
    const { userId, identityId } = await signInWith(parts.db, {
      provider: 'in-memory',
      subject: body.user,
      login: body.user,
      name: body.user,
      email: null,
      avatarUrl: null,
      groups: [],
    });
    await startSession(parts, reply, userId, identityId);
    return getUser(parts.db, signIn.orgCreators, userId);
  });

  parts.handle(api.signOut, parts.access.anyone, async ({ actor, reply }) => {
    if (actor.kind === 'session') await endSession(parts.db, actor.sessionHash);
    clearSessionCookie(reply);
  });

  parts.handle(api.getUser, parts.access.person, ({ userId }) => getUser(parts.db, signIn.orgCreators, userId));

  parts.handle(api.disconnectUser, parts.access.person, async ({ userId, reply }) => {
    await endAllSessions(parts.db, userId);
    clearSessionCookie(reply);
  });

  parts.handle(api.listIdentities, parts.access.person, ({ actor, userId }) =>
    listIdentities(parts.db, userId, actor.kind === 'session' ? actor.identityId : null),
  );

  /** The signed-in session (no token), and one of its user's own accounts named by the path. */
  const ownIdentity: Guard<{ session: Actor & { kind: 'session' } }> = async (actor, params) => {
    if (actor.kind !== 'session') throw httpError('TOKEN_KIND_REFUSED', 'Only a signed-in session may do this');
    const own = await parts.db
      .selectFrom('identities')
      .select('id')
      .where('id', '=', param(params, 'identityId'))
      .where('user_id', '=', actor.userId)
      .executeTakeFirst();
    if (!own) throw httpError('IDENTITY_NOT_FOUND', 'This account is not connected to you');
    return { session: actor };
  };

  parts.handle(api.unlinkIdentity, ownIdentity, async ({ session: { userId, sessionHash }, params }) => {
    await unlinkIdentity(parts.db, userId, params.identityId, sessionHash);
  });

  repositoryAccessRoutes(parts, providerRoutes(parts));
}

/** Sign-in and sessions; at start, the first admin of a new installation. */
export const authFeature = feature({ name: 'auth', needs, routes: authRoutes, start: ensureFirstAdmin });
