import { api } from '@wharf/contract';
import { type Guard, param } from '../../access/guards.ts';
import { userOf } from '../../access/rules.ts';
import { feature } from '../../features/feature.ts';
import type { PartsOf } from '../../features/parts.ts';
import { httpError } from '../../http/errors.ts';
import { idempotencyKeyOf } from '../../http/idempotency.ts';
import { FailureLimiter } from '../../lib/rateLimit.ts';
import { findCliLogin, toCliLogin } from './queries.ts';
import { approveCliLogin, cancelCliLogin, claimCliLogin, startCliLogin } from './service.ts';

/** Sign-ins one address may start in a window: plenty for people at terminals, not for filling the table. */
const STARTS_PER_WINDOW = 100;
const START_WINDOW_MS = 10 * 60_000;

const needs = ['access', 'config', 'counters', 'db', 'handle', 'sealer'] as const;

/**
 * `wharf login`: the CLI starts a request and polls for its token with its secret; a signed-in
 * person opens the request's page in the console and approves or cancels it.
 */
function cliLoginRoutes(parts: PartsOf<(typeof needs)[number]>) {
  const { db, sealer } = parts;
  const starts = new FailureLimiter(parts.counters, 'cli-login-starts', STARTS_PER_WINDOW, START_WINDOW_MS);

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

  parts.handle(api.startCliLogin, parts.access.anyone, async ({ body, request }) => {
    if (await starts.isBlocked(request.ip))
      throw httpError('RATE_LIMITED', 'Too many sign-ins started from this address; try again in a few minutes');
    await starts.fail(request.ip);
    return startCliLogin(db, { machine: body.machine, address: request.ip, consoleUrl: parts.config.url });
  });

  parts.handle(api.getCliLogin, loginToAnswer, ({ login }) => toCliLogin(login));

  parts.handle(api.approveCliLogin, loginToAnswer, ({ login, userId }) => approveCliLogin(db, sealer, login, userId));

  parts.handle(api.cancelCliLogin, loginToAnswer, ({ login, userId }) => cancelCliLogin(db, login, userId));

  parts.handle(api.claimCliLogin, namedLogin, ({ login, body, request }) =>
    claimCliLogin(db, sealer, login, { secret: body.secret, claimKeyOf: () => idempotencyKeyOf(request) }),
  );
}

/** `wharf login`, approved in the console. */
export const cliLoginsFeature = feature({ name: 'cliLogins', needs, routes: cliLoginRoutes });
