import { api } from '@wharf/contract';
import { unauthorized } from '../../http/errors.ts';
import { FailureLimiter } from '../../lib/rateLimit.ts';
import type { WharfApp } from '../../wharfApp.ts';
import { checkPassword, hasPasswordLogins } from './passwordLogins.ts';
import { clearSessionCookie, endAllSessions, endSession, startSession } from './sessions.ts';
import { findOrCreateUser, getUser } from './users.ts';

export function authRoutes(app: WharfApp) {
  // Per address and per user name, so neither one client nor many can grind one account.
  const failuresByAddress = new FailureLimiter(20, 60_000);
  const failuresByUser = new FailureLimiter(10, 60_000);

  app.handle(api.getAuthMethods, async () => ((await hasPasswordLogins(app)) ? ['in-memory'] : []));

  app.handle(api.signInInMemory, async ({ body, request, reply }) => {
    failuresByAddress.check(request.ip);
    failuresByUser.check(body.user);
    if (!(await checkPassword(app, body.user, body.password))) {
      failuresByAddress.fail(request.ip);
      failuresByUser.fail(body.user);
      throw unauthorized('Wrong user name or password');
    }
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
