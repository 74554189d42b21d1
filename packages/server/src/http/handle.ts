import { noContent, type Route } from '@wharf/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { type Actor, anonymous, resolveActor } from '../access/actor.ts';
import { ANSWERS_ALIKE, type Guard, type PathParams } from '../access/guards.ts';
import type { UploadTimeouts } from '../config/types.ts';
import type { Db } from '../db/schema.ts';
import { trackEvents } from '../events/outbox.ts';
import { decodedRequestBody } from './bodyEncoding.ts';
import { httpError } from './errors.ts';
import { FORM_BODY } from './jsonBody.ts';
import { CONTRACT_ROUTE, mustHaveGoodUrlText } from './textRule.ts';
import { watchUploadBody } from './uploadBody.ts';

// biome-ignore lint/suspicious/noExplicitAny: matches any schema in the positions not asked for
type AnyRoute = Route<any, any, any, any>;
type ParamsOf<R> = R extends Route<infer P, z.ZodType, z.ZodType, z.ZodType> ? z.infer<P> : never;
type QueryOf<R> = R extends Route<z.ZodType, infer Q, z.ZodType, z.ZodType> ? z.infer<Q> : never;
type BodyOf<R> = R extends Route<z.ZodType, z.ZodType, infer B, z.ZodType> ? z.infer<B> : never;
type ResponseOf<R> = R extends Route<z.ZodType, z.ZodType, z.ZodType, infer S> ? z.input<S> : never;

export type { AnyRoute };

export interface RouteInput<R extends AnyRoute> {
  params: ParamsOf<R>;
  query: QueryOf<R>;
  body: BodyOf<R>;
  actor: Actor;
  request: FastifyRequest;
  reply: FastifyReply;
}

/** What a handler gets: the validated input, the caller, and what the route's guard found. */
export type HandlerContext<R extends AnyRoute, T extends object = object> = RouteInput<R> & T;

// biome-ignore lint/suspicious/noConfusingVoidType: handlers of 204 routes simply return nothing
type HandlerResult<R> = ResponseOf<R> | FastifyReply | undefined | void;

export type RouteHandler<R extends AnyRoute, T extends object = object> = (
  context: HandlerContext<R, T>,
) => Promise<HandlerResult<R>> | HandlerResult<R>;

/** Whether an API token calls one of its own token's routes on itself (`wharf whoami`, `wharf logout`). */
const onItself = (route: Route, actor: Actor & { kind: 'apiToken' }, params: PathParams) =>
  route.auth === 'ownToken' && params.apiTokenId === actor.tokenId;

/** Refuses callers the route's `auth` and `scope` rule out, before any role check runs. */
function admit(route: Route, actor: Actor, params: PathParams): void {
  if (route.auth === 'public') return;
  switch (actor.kind) {
    case 'anonymous':
      throw httpError('SIGN_IN_REQUIRED', 'Sign in first');
    case 'siteToken':
      if (route.auth !== 'upload') throw httpError('TOKEN_KIND_REFUSED', 'A site token can only upload releases');
      return;
    case 'apiToken': {
      if (route.scope === null && !onItself(route, actor, params)) {
        throw httpError(
          'TOKEN_KIND_REFUSED',
          route.auth === 'ownToken'
            ? 'An API token may only read or delete itself'
            : 'This route cannot be called with an API token',
        );
      }
      const time = new Date().toISOString();
      if (time < actor.activatesAt)
        throw httpError('TOKEN_NOT_ACTIVE', `The token is not active until ${actor.activatesAt}`);
      if (actor.expiresAt && time >= actor.expiresAt)
        throw httpError('TOKEN_EXPIRED', `The token expired at ${actor.expiresAt}`);
      if (route.scope !== null && !actor.scopes.includes(route.scope))
        throw httpError('TOKEN_SCOPE_MISSING', `The token lacks the scope ${route.scope}`);
      return;
    }
    case 'session':
      return;
  }
}

/** The caller of each request and what its route's guard found, known before its body is read. */
const admitted = new WeakMap<FastifyRequest, { actor: Actor; granted: object }>();

/**
 * Binds a handler to a contract route. Before anything of the input is read, the caller is
 * resolved and admitted (the route's `auth` and the token's scope), the URL's text checked, and
 * the route's guard decides from the caller and the path alone (membership, role, the resources
 * the path names): every 401, 403 and 404 comes before any 400. Then Fastify parses and
 * validates params, query and body with the route's schemas, the handler runs with what the
 * guard found, and the answer is serialised with the response schema.
 */
export function bindRoute<R extends AnyRoute, T extends object>(
  fastify: FastifyInstance,
  db: Db,
  route: R,
  guard: Guard<T>,
  handler: RouteHandler<R, T>,
  /** Runs after a handler that recorded events, before its answer: they reach the edges first. */
  afterEvents: (lastSeq: number) => Promise<void>,
  /** How long the body of a route that takes files (multipart or raw bytes) may take to arrive. */
  uploadTimeouts: UploadTimeouts,
) {
  const takesFiles = Boolean(route.multipart || route.binaryBody);
  const answersAlike = ANSWERS_ALIKE in guard;
  if (answersAlike && route.auth !== 'public')
    throw new Error(`${route.path} is not public: its callers must be looked up`);
  const hasResponseBody = (route.response as z.ZodType) !== noContent;
  fastify.route({
    method: route.method.toUpperCase() as 'GET',
    url: route.path,
    config: { [CONTRACT_ROUTE]: true, [FORM_BODY]: route.formBody === true },
    ...(route.bodyLimit ? { bodyLimit: route.bodyLimit } : {}),
    schema: {
      ...(route.params ? { params: route.params } : {}),
      ...(route.query ? { querystring: route.query } : {}),
      ...(route.body && !route.multipart && !route.binaryBody ? { body: route.body } : {}),
      ...(hasResponseBody ? { response: { [route.status]: route.response } } : {}),
    },
    onRequest: async (request, reply) => {
      // From the first moment: a client that stalls while it is being admitted is still stalling.
      if (takesFiles) watchUploadBody(request, reply, uploadTimeouts);
      const actor = answersAlike
        ? anonymous
        : route.auth === 'public'
          ? await resolveActor(db, request).catch(() => anonymous)
          : await resolveActor(db, request);
      admit(route, actor, request.params as PathParams);
      mustHaveGoodUrlText(request);
      const granted = await guard(actor, request.params as PathParams);
      admitted.set(request, { actor, granted });
    },
    // After the caller is admitted: a body in a coding no route takes is refused only then.
    preParsing: async (request, reply, payload) => decodedRequestBody(request, reply, payload, !route.multipart),
    handler: async (request, reply) => {
      const { actor, granted } = admitted.get(request) ?? { actor: anonymous, granted: {} };
      const { result, lastSeq } = await trackEvents(async () =>
        handler({
          ...(granted as T),
          params: request.params as ParamsOf<R>,
          query: request.query as QueryOf<R>,
          body: request.body as BodyOf<R>,
          actor,
          request,
          reply,
        }),
      );
      // The change is committed; its answer waits until the sites it touched serve it.
      if (lastSeq > 0) await afterEvents(lastSeq);
      if (reply.sent) return reply;
      if (!hasResponseBody) return reply.code(204).send();
      return reply.code(route.status).send(result);
    },
  });
}
