import { STATUS_CODES } from 'node:http';
import { type ErrorCode, errorCodes } from '@wharf/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import { isDiskFull } from './diskFull.ts';
import { type FieldProblem, HttpError } from './errors.ts';
import { malformedMultipart } from './multipart.ts';

/** Failures of Fastify and its plugins by their own code, given Wharf's code for the same failure. */
const frameworkCodes: Record<string, ErrorCode> = {
  FST_ERR_BAD_URL: 'URL_INVALID',
  FST_ERR_MAX_PARAM_LENGTH: 'URL_TOO_LONG',
  FST_ERR_CTP_INVALID_JSON_BODY: 'BODY_INVALID',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'BODY_INVALID',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'BODY_INVALID',
  FST_ERR_CTP_BODY_TOO_LARGE: 'BODY_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'MEDIA_TYPE_UNSUPPORTED',
  FST_ERR_CTP_EMPTY_TYPE: 'MEDIA_TYPE_UNSUPPORTED',
  // @fastify/multipart answers 406 to a body that is not multipart: for Wharf the media type is wrong.
  FST_INVALID_MULTIPART_CONTENT_TYPE: 'MEDIA_TYPE_UNSUPPORTED',
};

/** The rest by their status, so that no answer's status ever differs from its code's. */
const codesByStatus: Record<number, ErrorCode> = {
  400: 'BODY_INVALID',
  404: 'ROUTE_NOT_FOUND',
  408: 'REQUEST_TIMEOUT',
  413: 'BODY_TOO_LARGE',
  414: 'URL_TOO_LONG',
  415: 'MEDIA_TYPE_UNSUPPORTED',
  429: 'RATE_LIMITED',
  431: 'HEADERS_TOO_LARGE',
  503: 'SERVER_UNAVAILABLE',
};

function codeOfFrameworkError(error: FastifyError): ErrorCode {
  const known = frameworkCodes[error.code ?? ''];
  if (known) return known;
  const status = error.statusCode;
  const statusCode = status && status >= 400 && status < 600 ? status : 500;
  if (statusCode === 400 && /MULTIPART|BOUNDARY|PART/i.test(error.code ?? '')) return 'MULTIPART_INVALID';
  return codesByStatus[statusCode] ?? (statusCode < 500 ? 'REQUEST_MALFORMED' : 'INTERNAL_ERROR');
}

/** The one shape of every failure: `{ statusCode, code, error, message }`, plus `details` for validation. */
export function errorBody(error: FastifyError | HttpError) {
  if (error instanceof HttpError) {
    return { statusCode: error.statusCode, code: error.code, message: error.message, details: error.details };
  }
  const malformed = malformedMultipart(error);
  if (malformed) return errorBody(malformed);
  if (isDatabaseUnavailable(error)) {
    return {
      statusCode: errorCodes.DATABASE_UNAVAILABLE,
      code: 'DATABASE_UNAVAILABLE' as const,
      message: 'The database cannot be reached just now (restarting or failing over); try again in a few seconds',
    };
  }
  if (isDiskFull(error)) {
    return {
      statusCode: errorCodes.DISK_FULL,
      code: 'DISK_FULL' as const,
      message: "The server's disk is full; nothing was stored. Ask its operator to free space, then try again",
    };
  }
  const code = codeOfFrameworkError(error);
  const statusCode = errorCodes[code];
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

/** Fastify's failures before a route runs (a malformed or over-long path), shaped like every other. */
export function answerFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  return sendError(reply, errorBody(error));
}

export function installErrorHandler(fastify: FastifyInstance) {
  fastify.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    const body = errorBody(error);
    const where = { err: error, host: request.hostname, path: request.url };
    // An outage fails every request for its length: each is said, but as what the operator expects.
    if (body.code === 'DATABASE_UNAVAILABLE') request.log.warn(where, 'request failed: the database is unavailable');
    else if (body.statusCode >= 500) request.log.error(where, 'request failed');
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
