import { api } from '@wharf/contract';
import { type Guard, param } from '../../access/guards.ts';
import { userOf } from '../../access/rules.ts';
import { httpError } from '../../http/errors.ts';
import { FailureLimiter } from '../../lib/rateLimit.ts';
import type { WharfApp } from '../../wharfApp.ts';
import { findCliLogin, toCliLogin } from './queries.ts';
import { approveCliLogin, cancelCliLogin, claimCliLogin, startCliLogin } from './service.ts';

/** Sign-ins one address may start in a window: plenty for people at terminals, not for filling the table. */
const STARTS_PER_WINDOW = 100;
const START_WINDOW_MS = 10 * 60_000;

/**
 * `wharf login`: the CLI starts a request and polls for its token with its secret; a signed-in
 * person opens the request's page in the console and approves or cancels it.
 */
export function cliLoginRoutes(app: WharfApp) {
  const { db, sealer } = app;
  const starts = new FailureLimiter(app.counters, 'cli-login-starts', STARTS_PER_WINDOW, START_WINDOW_MS);

  /** The request the path names, to the CLI that polls it (its secret is checked with the body). */
  const namedLogin = (async (_actor, params) => ({
    login: await findCliLogin(db, param(params, 'cliLoginId')),
  })) satisfies Guard;

  /**
   * A request, for a signed-in person: any pending one whose address they were given, and one
   * they answered; one another person answered is none of theirs.
   */
  const loginToAnswer = (async (actor, params) => {
    const userId = userOf(actor);
    const login = await findCliLogin(db, param(params, 'cliLoginId'));
    if (login.user_id !== null && login.user_id !== userId)
      throw httpError('CLI_LOGIN_NOT_FOUND', 'This sign-in request does not exist (any more)');
    return { userId, login };
  }) satisfies Guard;

  app.handle(api.startCliLogin, app.access.anyone, async ({ body, request }) => {
    if (await starts.isBlocked(request.ip))
      throw httpError('RATE_LIMITED', 'Too many sign-ins started from this address; try again in a few minutes');
    await starts.fail(request.ip);
    return startCliLogin(db, { machine: body.machine, address: request.ip, consoleUrl: app.config.url });
  });

  app.handle(api.getCliLogin, loginToAnswer, ({ login }) => toCliLogin(login));

  app.handle(api.approveCliLogin, loginToAnswer, ({ login, userId }) => approveCliLogin(db, sealer, login, userId));

  app.handle(api.cancelCliLogin, loginToAnswer, ({ login, userId }) => cancelCliLogin(db, login, userId));

  app.handle(api.claimCliLogin, namedLogin, ({ login, body }) => claimCliLogin(db, sealer, login, body.secret));
}
