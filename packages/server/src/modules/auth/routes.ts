import { api } from '@wharf/contract';
import { httpError } from '../../http/errors.ts';
import { GuessThrottle } from '../../lib/guessThrottle.ts';
import type { WharfApp } from '../../wharfApp.ts';
import { checkPassword, hasPasswordLogins } from './passwordLogins.ts';
import { clearSessionCookie, endAllSessions, endSession, startSession } from './sessions.ts';
import { findOrCreateUser, getUser } from './users.ts';

export function authRoutes(app: WharfApp) {
  // Failures slow the next attempts of their address and of their name: neither one client nor
  // many can grind an account, and its owner still gets in.
  const guesses = new GuessThrottle();

  app.handle(api.getAuthMethods, async () => ((await hasPasswordLogins(app)) ? ['in-memory'] : []));

  app.handle(api.signInInMemory, async ({ body, request, reply }) => {
    const outcome = await guesses.attempt(request.ip ?? 'unknown', body.user, () =>
      checkPassword(app, body.user, body.password),
    );
    if (outcome === 'busy')
      throw httpError('RATE_LIMITED', 'Too many sign-in attempts at once for this user or address; try again shortly');
    if (outcome === 'wrong') throw httpError('CREDENTIALS_WRONG', 'Wrong user name or password');
    const user = await findOrCreateUser(app.db, {
      provider: 'in-memory',
      providerId: body.user,
      name: body.user,
      email: null,
    });
    await startSession(app, reply, user._id);
    return user;
  });

  app.handle(api.signOut, async ({ actor, reply }) => {
    if (actor.kind === 'session') await endSession(app.db, actor.sessionHash);
    clearSessionCookie(reply);
  });

  app.handle(api.getUser, ({ actor }) => getUser(app.db, actor.userId!));

  app.handle(api.disconnectUser, async ({ actor, reply }) => {
    await endAllSessions(app.db, actor.userId!);
    clearSessionCookie(reply);
  });
}
