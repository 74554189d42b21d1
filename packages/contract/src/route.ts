import { z } from 'zod';
import type { HTTP_METHODS } from './constants.ts';

export type HttpMethod = (typeof HTTP_METHODS)[number];

/**
 * Who may call a route at all, before any role check:
 * - `public`: anybody, signed in or not;
 * - `user`: a session, or an API token holding the route's scope;
 * - `upload`: as `user`, and also a site token of the site in the path;
 * - `ownToken`: as `user`, and also an API token the path names (`:apiTokenId`), whatever its
 *   scopes: a token may read and revoke itself (`wharf whoami`, `wharf logout`), never another.
 */
export type RouteAuth = 'public' | 'user' | 'upload' | 'ownToken';

/** The answer of a route that has nothing to say: 204 No Content. */
export const noContent = z.undefined();

export interface RouteSpec<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> {
  method: HttpMethod;
  /** Fastify-style path, `:name` for parameters. */
  path: string;
  /** The API token scope this route needs; null: it cannot be called with a token. */
  scope: string | null;
  auth?: RouteAuth;
  summary: string;
  params?: P;
  query?: Q;
  body?: B;
  /** The body is multipart form data (uploads); `body` then is not validated as JSON. */
  multipart?: boolean;
  /** The body is raw bytes of this media type (`application/octet-stream`, say), handed to the handler as a stream. */
  binaryBody?: 'application/octet-stream' | 'application/x-tar';
  /**
   * Takes an `Idempotency-Key` header: a retry with the same key gets the first answer instead
   * of doing the work twice (409 while the first still runs, 422 for another request).
   */
  idempotent?: boolean;
  /**
   * Also takes an HTML form's body (`application/x-www-form-urlencoded`), as its fields: the way
   * GitHub sends a webhook unless told JSON. Every other route refuses one (415).
   */
  formBody?: boolean;
  /** Largest JSON body in bytes, when the server's default (2 MiB) is too small for the route. */
  bodyLimit?: number;
  /** Success status; 204 when the response is `noContent`. */
  status?: number;
  response: R;
}

export interface Route<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> extends RouteSpec<P, Q, B, R> {
  auth: RouteAuth;
  status: number;
}

export function route<
  P extends z.ZodType = z.ZodObject<{}>,
  Q extends z.ZodType = z.ZodObject<{}>,
  B extends z.ZodType = z.ZodUndefined,
  R extends z.ZodType = z.ZodType,
>(spec: RouteSpec<P, Q, B, R>): Route<P, Q, B, R> {
  return {
    auth: 'user',
    status: (spec.response as z.ZodType) === noContent ? 204 : 200,
    ...spec,
  };
}

export type RouteParams<T> = T extends Route<infer P, z.ZodType, z.ZodType, z.ZodType> ? z.infer<P> : never;
export type RouteQuery<T> = T extends Route<z.ZodType, infer Q, z.ZodType, z.ZodType> ? z.input<Q> : never;
export type RouteBody<T> = T extends Route<z.ZodType, z.ZodType, infer B, z.ZodType> ? z.input<B> : never;
export type RouteResponse<T> = T extends Route<z.ZodType, z.ZodType, z.ZodType, infer R> ? z.infer<R> : never;
