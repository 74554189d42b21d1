import type { FastifyInstance } from 'fastify';
import { httpError } from './errors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses browser mutations sent from another origin. A bearer-token call carries no ambient
 * credential, so only cookie-borne requests need the check; SameSite=Lax covers old browsers.
 */
export function refuseCrossOriginMutations(fastify: FastifyInstance, allowedOrigin: string) {
  fastify.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method) || request.headers.authorization) return;
    const origin = request.headers.origin;
    if (origin !== undefined && origin !== allowedOrigin)
      throw httpError('CROSS_ORIGIN_REFUSED', 'Cross-origin request refused');
    if (origin === undefined && request.headers['sec-fetch-site'] === 'cross-site') {
      throw httpError('CROSS_ORIGIN_REFUSED', 'Cross-origin request refused');
    }
  });
}
