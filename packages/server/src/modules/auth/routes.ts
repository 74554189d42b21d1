import { api } from '@wharf/contract';
import type { Actor } from '../../access/actor.ts';
import { type Guard, param } from '../../access/guards.ts';
import { httpError } from '../../http/errors.ts';
import { GuessThrottle } from '../../lib/guessThrottle.ts';
import type { WharfApp } from '../../wharfApp.ts';
import { listIdentities, signInWith, unlinkIdentity } from './identities.ts';
import { checkPassword, hasPasswordLogins } from './passwordLogins.ts';
import { providerRoutes } from './providerRoutes.ts';
import { signInMethods } from './providers/registry.ts';
import { clearSessionCookie, endAllSessions, endSession, startSession } from './sessions.ts';
import { getUser } from './users.ts';

export function authRoutes(app: WharfApp) {
  const { signIn } = app.config;
  // Failures slow the next attempts of their address and of their name: neither one client nor
  // many can grind an account, and its owner still gets in.
  const guesses = new GuessThrottle(app.counters, 'sign-ins');
  const passwordsOn = async () => signIn.passwords && (await hasPasswordLogins(app));

  app.handle(api.getAuthMethods, app.access.anyone, async () => signInMethods(signIn, await passwordsOn()));

  app.handle(api.signInInMemory, app.access.anyone, async ({ body, request, reply }) => {
    if (!signIn.passwords)
      throw httpError('SIGN_IN_METHOD_OFF', 'Signing in with a user name and password is turned off here');
    const outcome = await guesses.attempt(request.ip ?? 'unknown', body.user, () =>
      checkPassword(app, body.user, body.password),
    );
    if (outcome === 'busy')
      throw httpError('RATE_LIMITED', 'Too many sign-in attempts at once for this user or address; try again shortly');
    if (outcome === 'wrong') throw httpError('CREDENTIALS_WRONG', 'Wrong user name or password');
    const { userId, identityId } = await signInWith(app.db, {
      provider: 'in-memory',
      subject: body.user,
      login: body.user,
      name: body.user,
      email: null,
      avatarUrl: null,
      groups: [],
    });
    await startSession(app, reply, userId, identityId);
    return getUser(app.db, signIn.orgCreators, userId);
  });

  app.handle(api.signOut, app.access.anyone, async ({ actor, reply }) => {
    if (actor.kind === 'session') await endSession(app.db, actor.sessionHash);
    clearSessionCookie(reply);
  });

  app.handle(api.getUser, app.access.person, ({ userId }) => getUser(app.db, signIn.orgCreators, userId));

  app.handle(api.disconnectUser, app.access.person, async ({ userId, reply }) => {
    await endAllSessions(app.db, userId);
    clearSessionCookie(reply);
  });

  app.handle(api.listIdentities, app.access.person, ({ actor, userId }) =>
    listIdentities(app.db, userId, actor.kind === 'session' ? actor.identityId : null),
  );

  /** The signed-in session (no token), and one of its user's own accounts named by the path. */
  const ownIdentity: Guard<{ session: Actor & { kind: 'session' } }> = async (actor, params) => {
    if (actor.kind !== 'session') throw httpError('TOKEN_KIND_REFUSED', 'Only a signed-in session may do this');
    const own = await app.db
      .selectFrom('identities')
      .select('id')
      .where('id', '=', param(params, 'identityId'))
      .where('user_id', '=', actor.userId)
      .executeTakeFirst();
    if (!own) throw httpError('IDENTITY_NOT_FOUND', 'This account is not connected to you');
    return { session: actor };
  };

  app.handle(api.unlinkIdentity, ownIdentity, async ({ session: { userId, sessionHash }, params }) => {
    await unlinkIdentity(app.db, userId, params.identityId, sessionHash);
  });

  providerRoutes(app);
}
