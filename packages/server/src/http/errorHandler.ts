import { STATUS_CODES } from 'node:http';
import { type ErrorCode, errorCodes } from '@wharf/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDiskFull } from './diskFull.ts';
import { type FieldProblem, HttpError } from './errors.ts';
import { malformedMultipart } from './multipart.ts';

/** Errors raised by Fastify and its plugins, given Wharf's code for the same failure. */
function codeOfFrameworkError(error: FastifyError, statusCode: number): ErrorCode {
  if (statusCode === 413) return 'BODY_TOO_LARGE';
  if (statusCode === 415) return 'MEDIA_TYPE_UNSUPPORTED';
  if (statusCode === 429) return 'RATE_LIMITED';
  if (statusCode === 404) return 'ROUTE_NOT_FOUND';
  if (statusCode >= 500) return 'INTERNAL_ERROR';
  if (/MULTIPART|BOUNDARY|PART/i.test(error.code ?? '')) return 'MULTIPART_INVALID';
  return 'BODY_INVALID';
}

/** The one shape of every failure: `{ statusCode, code, error, message }`, plus `details` for validation. */
export function errorBody(error: FastifyError | HttpError) {
  if (error instanceof HttpError) {
    return { statusCode: error.statusCode, code: error.code, message: error.message, details: error.details };
  }
  const malformed = malformedMultipart(error);
  if (malformed) return errorBody(malformed);
  if (isDiskFull(error)) {
    return {
      statusCode: errorCodes.DISK_FULL,
      code: 'DISK_FULL' as const,
      message: "The server's disk is full; nothing was stored. Ask its operator to free space, then try again",
    };
  }
  const statusCode = error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
  const code = codeOfFrameworkError(error, statusCode);
  const message = statusCode >= 500 ? 'Something went wrong on our side; it has been logged' : error.message;
  return { statusCode, code, message, details: undefined };
}

/** The JSON text of an error answer, for the places that answer without Fastify (the cluster's hand-off). */
export function errorJson(code: ErrorCode, message: string, details?: FieldProblem[]) {
  const statusCode = errorCodes[code];
  return JSON.stringify({
    statusCode,
    code,
    error: STATUS_CODES[statusCode] ?? 'Error',
    message,
    ...(details ? { details } : {}),
  });
}

export function sendError(reply: FastifyReply, body: ReturnType<typeof errorBody>) {
  return reply
    .code(body.statusCode)
    .type('application/json')
    .send(errorJson(body.code, body.message, body.details));
}

export function installErrorHandler(fastify: FastifyInstance) {
  fastify.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    const body = errorBody(error);
    if (body.statusCode >= 500)
      request.log.error({ err: error, host: request.hostname, path: request.url }, 'request failed');
    return sendError(reply, body);
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
    return sendError(reply, { statusCode: 404, code: 'ROUTE_NOT_FOUND', message, details: undefined });
  });
}
