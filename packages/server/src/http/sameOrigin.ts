import type { FastifyInstance } from 'fastify';
import { httpError } from './errors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses browser mutations sent from another origin. A bearer-token call carries no ambient
 * credential, so only cookie-borne requests need the check; SameSite=Lax covers old browsers.
 */
export function refuseCrossOriginMutations(fastify: FastifyInstance, allowedOrigin: string) {
  // A callback hook, not an async one: every request runs it, and a promise per hook is measurable.
  fastify.addHook('onRequest', (request, _reply, done) => {
    if (SAFE_METHODS.has(request.method) || request.headers.authorization) return done();
    const origin = request.headers.origin;
    const crossOrigin =
      (origin !== undefined && origin !== allowedOrigin) ||
      (origin === undefined && request.headers['sec-fetch-site'] === 'cross-site');
    done(crossOrigin ? httpError('CROSS_ORIGIN_REFUSED', 'Cross-origin request refused') : undefined);
  });
}
