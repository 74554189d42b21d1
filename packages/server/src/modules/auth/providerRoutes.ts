import type { SignInError } from '@wharf/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { resolveActor } from '../../access/actor.ts';
import type { PartsOf } from '../../features/parts.ts';
import { httpError } from '../../http/errors.ts';
import { FORM_BODY } from '../../http/jsonBody.ts';
import { FailureLimiter } from '../../lib/rateLimit.ts';
import { IdentityInUseError, linkIdentity, type ProviderProfile, signInWith } from './identities.ts';
import type { SignedIn, SignInProvider } from './providers/provider.ts';
import { SignInRefusal } from './providers/provider.ts';
import { signInProvidersOf } from './providers/registry.ts';
import { grantRepositoryAccess } from './repositoryAccess.ts';
import { startSession } from './sessions.ts';
import { spendFlow, startFlow } from './signInFlows.ts';

const LINK_PAGE = '/user/security';

const CONSOLE_ORIGIN = 'http://console.invalid';

/**
 * A console page a grant of repository access may come back to: a path of this origin, read as a
 * browser reads it (so `/.//elsewhere` is refused as the `//elsewhere` it becomes), or null.
 */
function consolePath(value: unknown): string | null {
  if (typeof value !== 'string' || !/^\/[\x21-\x7e]{0,499}$/.test(value)) return null;
  const url = new URL(value, CONSOLE_ORIGIN);
  if (url.origin !== CONSOLE_ORIGIN || url.pathname.startsWith('//')) return null;
  return `${url.pathname}${url.search}`;
}

/** Where a flow comes back to: the page that asked for repository access, the connected accounts, or /login. */
const pageOf = (linkUserId: string | null, returnTo: string | null) => returnTo ?? (linkUserId ? LINK_PAGE : '/login');

/** A console page with one more query parameter (the page may have a query of its own). */
function withQuery(page: string, query: Record<string, string>) {
  const url = new URL(page, CONSOLE_ORIGIN);
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
  return `${url.pathname}${url.search}`;
}

/** Flows one address may start in a window: enough for any person, not for filling the table. */
const STARTS_PER_WINDOW = 60;
const START_WINDOW_MS = 10 * 60_000;

/**
 * The full-page flows of the providers: `GET /auth/{provider}` signs in, `POST
 * /auth/{provider}/link` connects another account to the signed-in user, `POST
 * /auth/{provider}/repositories` does so asking for repository access too (a code host), and all
 * come back to `GET /auth/{provider}/callback`. A refusal lands on /login (or the page the flow
 * started from) with its code, and opens no session.
 */
export function providerRoutes(parts: PartsOf<'config' | 'counters' | 'db' | 'fastify' | 'log' | 'sealer'>) {
  const providers = signInProvidersOf(parts);
  const starts = new FailureLimiter(parts.counters, 'sign-in-starts', STARTS_PER_WINDOW, START_WINDOW_MS);

  const begin = async (
    request: FastifyRequest,
    reply: FastifyReply,
    linkUserId: string | null,
    returnTo: string | null = null,
  ) => {
    const { provider: providerId } = request.params as { provider: string };
    const provider = providers.get(providerId);
    const page = pageOf(linkUserId, returnTo);
    if (!provider || (returnTo && !provider.repositories))
      return refuse(reply, page, 'SIGN_IN_METHOD_UNKNOWN', providerId);
    const address = request.ip ?? 'unknown';
    if (await starts.isBlocked(address))
      throw httpError('RATE_LIMITED', 'Too many sign-ins started from this address; try again in a few minutes');
    await starts.fail(address);
    try {
      const flow = await startFlow(parts, reply, provider.id, linkUserId, returnTo);
      const access = returnTo ? 'repositories' : undefined;
      return reply.redirect((await provider.authorizationUrl(flow, access)).href, 303);
    } catch (error) {
      return refusal(reply, provider, page, error);
    }
  };

  parts.fastify.get('/auth/:provider', (request, reply) => begin(request, reply, null));

  // The console's "Connect" and "Allow access" buttons are plain HTML forms (a full-page flow):
  // their small urlencoded body is taken here.
  const formRoute = { bodyLimit: 1024, config: { [FORM_BODY]: true } };
  const signedIn = async (request: FastifyRequest) => {
    const actor = await resolveActor(parts.db, request);
    if (actor.kind !== 'session') throw httpError('SIGN_IN_REQUIRED', 'Sign in first, then connect another account');
    return actor.userId;
  };
  parts.fastify.post('/auth/:provider/link', formRoute, async (request, reply) =>
    begin(request, reply, await signedIn(request)),
  );
  // Repository access: the same flow asking for the code host's repository scopes too, coming
  // back to the console page that asked (the site's repository settings).
  parts.fastify.post('/auth/:provider/repositories', formRoute, async (request, reply) => {
    const userId = await signedIn(request);
    const returnTo = consolePath((request.body as Record<string, unknown> | undefined)?.returnTo);
    return begin(request, reply, userId, returnTo ?? LINK_PAGE);
  });

  parts.fastify.get('/auth/:provider/callback', async (request, reply) => {
    const { provider: providerId } = request.params as { provider: string };
    const query = request.query as Record<string, string | undefined>;
    const provider = providers.get(providerId);
    if (!provider) return refuse(reply, '/login', 'SIGN_IN_METHOD_UNKNOWN', providerId);
    const spent = await spendFlow(parts, request, reply, provider.id, query.state);
    if (!spent.ok) return refuse(reply, '/login', spent.code, provider.id);
    const { flow, linkUserId, returnTo } = spent;
    const page = pageOf(linkUserId, returnTo);
    try {
      if (query.error)
        throw new SignInRefusal(
          query.error === 'access_denied' ? 'SIGN_IN_CANCELLED' : 'SIGN_IN_FAILED',
          `the provider answered ${query.error}: ${query.error_description ?? ''}`,
        );
      const signedIn = await provider.profileFrom(callbackUrlOf(parts, request), flow);
      const { profile } = signedIn;
      if (!allowed(provider, profile)) {
        parts.log.warn({ provider: provider.id, login: profile.login }, 'Sign-in refused: in no allowed group');
        return refuse(reply, page, 'SIGN_IN_NOT_ALLOWED', provider.id);
      }
      if (!linkUserId) return await signIn(reply, profile);
      return await link(request, reply, provider, { linkUserId, returnTo }, signedIn);
    } catch (error) {
      return refusal(reply, provider, page, error);
    }
  });

  const signIn = async (reply: FastifyReply, profile: ProviderProfile) => {
    const { userId, identityId } = await signInWith(parts.db, profile);
    await startSession(parts, reply, userId, identityId);
    return reply.redirect('/', 303);
  };

  /** Connects the account to the user who asked; a grant of repository access also keeps its token. */
  const link = async (
    request: FastifyRequest,
    reply: FastifyReply,
    provider: SignInProvider,
    { linkUserId, returnTo }: { linkUserId: string; returnTo: string | null },
    { profile, tokens }: SignedIn,
  ) => {
    // The browser must still be signed in as the user who asked for the link.
    const actor = await resolveActor(parts.db, request);
    const page = pageOf(linkUserId, returnTo);
    if (actor.userId !== linkUserId) return refuse(reply, page, 'SIGN_IN_STATE_MISMATCH', provider.id);
    const identityId = await linkIdentity(parts.db, linkUserId, profile);
    if (!returnTo) return reply.redirect(withQuery(LINK_PAGE, { linked: provider.id }), 303);
    await grantRepositoryAccess(parts, identityId, tokens);
    return reply.redirect(withQuery(returnTo, { repositories: provider.id }), 303);
  };

  const refusal = (reply: FastifyReply, provider: SignInProvider, page: string, error: unknown) => {
    if (error instanceof IdentityInUseError) return refuse(reply, page, 'IDENTITY_IN_USE', provider.id);
    if (!(error instanceof SignInRefusal)) throw error;
    parts.log.warn({ provider: provider.id, code: error.code, detail: error.detail }, 'Sign-in refused');
    return refuse(reply, page, error.code, provider.id);
  };
  return providers;
}

/** The callback as the provider called it, on Wharf's own URL (what the redirect URI was registered as). */
function callbackUrlOf(
  parts: PartsOf<'config' | 'counters' | 'db' | 'fastify' | 'log' | 'sealer'>,
  request: FastifyRequest,
) {
  return new URL(request.url, parts.config.url);
}

function allowed(provider: SignInProvider, profile: ProviderProfile) {
  return provider.allowedGroups.length === 0 || profile.groups.some((group) => provider.allowedGroups.includes(group));
}

/** Back to the page the flow started from, with the code whose text it shows. */
function refuse(reply: FastifyReply, page: string, code: SignInError, providerId: string) {
  return reply.redirect(withQuery(page, { error: code, provider: providerId }), 303);
}
