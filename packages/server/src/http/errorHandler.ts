import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from './errors.ts';

/** One shape for every failure: `{ statusCode, error, message }`, plus `details` for validation. */
export function installErrorHandler(fastify: FastifyInstance) {
  fastify.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    const statusCode = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    if (statusCode >= 500) request.log.error({ err: error }, 'request failed');
    const message = statusCode >= 500 ? 'Something went wrong on our side; it has been logged' : error.message;
    const details = error instanceof HttpError ? error.details : undefined;
    return reply
      .code(statusCode)
      .type('application/json')
      .send(
        JSON.stringify({
          statusCode,
          error: STATUS_CODES[statusCode] ?? 'Error',
          message,
          ...(details ? { details } : {}),
        }),
      );
  });
}

/** Unknown paths: the console's page when it has one, else a JSON 404. */
export function installNotFoundHandler(
  fastify: FastifyInstance,
  fallback?: (request: FastifyRequest, reply: FastifyReply) => Promise<boolean>,
) {
  fastify.setNotFoundHandler(async (request, reply) => {
    if (fallback && (await fallback(request, reply))) return reply;
    const message = `No route ${request.method} ${request.url.split('?')[0]}`;
    return reply
      .code(404)
      .type('application/json')
      .send(JSON.stringify({ statusCode: 404, error: 'Not Found', message }));
  });
}
