import type { SignInError } from '@wharf/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { resolveActor } from '../../access/actor.ts';
import type { PartsOf } from '../../features/parts.ts';
import { httpError } from '../../http/errors.ts';
import { FailureLimiter } from '../../lib/rateLimit.ts';
import { outsideFetch } from '../../outbound/outsideServices.ts';
import { IdentityInUseError, linkIdentity, type ProviderProfile, signInWith } from './identities.ts';
import type { SignInProvider } from './providers/provider.ts';
import { SignInRefusal } from './providers/provider.ts';
import { signInProviders } from './providers/registry.ts';
import { startSession } from './sessions.ts';
import { spendFlow, startFlow } from './signInFlows.ts';

const LINK_PAGE = '/user/security';

/** Flows one address may start in a window: enough for any person, not for filling the table. */
const STARTS_PER_WINDOW = 60;
const START_WINDOW_MS = 10 * 60_000;

/**
 * The full-page flows of the providers: `GET /auth/{provider}` signs in, `POST
 * /auth/{provider}/link` connects another account to the signed-in user, and both come back to
 * `GET /auth/{provider}/callback`. A refusal lands on /login (or the connected accounts) with its
 * code, and opens no session.
 */
export function providerRoutes(parts: PartsOf<'config' | 'counters' | 'db' | 'fastify' | 'log' | 'sealer'>) {
  const outside = outsideFetch(parts.config.extraCaCerts);
  parts.fastify.addHook('onClose', () => outside.close());
  const providers = signInProviders(parts.config.signIn, outside.fetch);
  const starts = new FailureLimiter(parts.counters, 'sign-in-starts', STARTS_PER_WINDOW, START_WINDOW_MS);

  const begin = async (request: FastifyRequest, reply: FastifyReply, linkUserId: string | null) => {
    const { provider: providerId } = request.params as { provider: string };
    const provider = providers.get(providerId);
    if (!provider) return refuse(reply, linkUserId, 'SIGN_IN_METHOD_UNKNOWN', providerId);
    const address = request.ip ?? 'unknown';
    if (await starts.isBlocked(address))
      throw httpError('RATE_LIMITED', 'Too many sign-ins started from this address; try again in a few minutes');
    await starts.fail(address);
    try {
      const flow = await startFlow(parts, reply, provider.id, linkUserId);
      return reply.redirect((await provider.authorizationUrl(flow)).href, 303);
    } catch (error) {
      return refusal(reply, provider, linkUserId, error);
    }
  };

  parts.fastify.get('/auth/:provider', (request, reply) => begin(request, reply, null));

  // The console's "Connect" buttons are plain HTML forms (a full-page flow): their empty
  // urlencoded body is accepted here, and only here.
  parts.fastify.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { bodyLimit: 1024 }, (_request, _body, done) =>
      done(null, {}),
    );
    scope.post('/auth/:provider/link', async (request, reply) => {
      const actor = await resolveActor(parts.db, request);
      if (actor.kind !== 'session') throw httpError('SIGN_IN_REQUIRED', 'Sign in first, then connect another account');
      return begin(request, reply, actor.userId);
    });
  });

  parts.fastify.get('/auth/:provider/callback', async (request, reply) => {
    const { provider: providerId } = request.params as { provider: string };
    const query = request.query as Record<string, string | undefined>;
    const provider = providers.get(providerId);
    if (!provider) return refuse(reply, null, 'SIGN_IN_METHOD_UNKNOWN', providerId);
    const spent = await spendFlow(parts, request, reply, provider.id, query.state);
    if (!spent.ok) return refuse(reply, null, spent.code, provider.id);
    const { flow, linkUserId } = spent;
    try {
      if (query.error)
        throw new SignInRefusal(
          query.error === 'access_denied' ? 'SIGN_IN_CANCELLED' : 'SIGN_IN_FAILED',
          `the provider answered ${query.error}: ${query.error_description ?? ''}`,
        );
      const profile = await provider.profileFrom(callbackUrlOf(parts, request), flow);
      if (!allowed(provider, profile)) {
        parts.log.warn({ provider: provider.id, login: profile.login }, 'Sign-in refused: in no allowed group');
        return refuse(reply, linkUserId, 'SIGN_IN_NOT_ALLOWED', provider.id);
      }
      return linkUserId ? await link(request, reply, provider, linkUserId, profile) : await signIn(reply, profile);
    } catch (error) {
      return refusal(reply, provider, linkUserId, error);
    }
  });

  const signIn = async (reply: FastifyReply, profile: ProviderProfile) => {
    const { userId, identityId } = await signInWith(parts.db, profile);
    await startSession(parts, reply, userId, identityId);
    return reply.redirect('/', 303);
  };

  const link = async (
    request: FastifyRequest,
    reply: FastifyReply,
    provider: SignInProvider,
    linkUserId: string,
    profile: ProviderProfile,
  ) => {
    // The browser must still be signed in as the user who asked for the link.
    const actor = await resolveActor(parts.db, request);
    if (actor.userId !== linkUserId) return refuse(reply, linkUserId, 'SIGN_IN_STATE_MISMATCH', provider.id);
    await linkIdentity(parts.db, linkUserId, profile);
    return reply.redirect(`${LINK_PAGE}?linked=${encodeURIComponent(provider.id)}`, 303);
  };

  const refusal = (reply: FastifyReply, provider: SignInProvider, linkUserId: string | null, error: unknown) => {
    if (error instanceof IdentityInUseError) return refuse(reply, linkUserId, 'IDENTITY_IN_USE', provider.id);
    if (!(error instanceof SignInRefusal)) throw error;
    parts.log.warn({ provider: provider.id, code: error.code, detail: error.detail }, 'Sign-in refused');
    return refuse(reply, linkUserId, error.code, provider.id);
  };
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
function refuse(reply: FastifyReply, linkUserId: string | null, code: SignInError, providerId: string) {
  const page = linkUserId ? LINK_PAGE : '/login';
  const query = new URLSearchParams({ error: code, provider: providerId });
  return reply.redirect(`${page}?${query}`, 303);
}
