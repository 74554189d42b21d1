import { isUtf8 } from 'node:buffer';
import type { FastifyInstance } from 'fastify';
import { httpError } from './errors.ts';
import { findBadText, textInvalid } from './textRule.ts';

const rawBodies = new WeakMap<object, Buffer>();

/** The bytes of a request's JSON or form body as they arrived: what a webhook's signature is computed over. */
export function rawBody(request: object): Buffer | undefined {
  return rawBodies.get(request);
}

/** The route option that lets a route take an HTML form's body: its own page's forms, a forge's form-encoded webhook. */
export const FORM_BODY = 'wharfFormBody';

/**
 * JSON bodies, read as bytes: bytes that are not UTF-8 are refused rather than silently turned
 * into U+FFFD, and every string and key of the parsed body goes under the text rule. Fastify's
 * own parser (with its guards against `__proto__` and `constructor.prototype`, as configured) does the parsing, so nothing else changes.
 */
export function installJsonBodies(fastify: FastifyInstance) {
  const { onProtoPoisoning = 'error', onConstructorPoisoning = 'error' } = fastify.initialConfig;
  const parseJson = fastify.getDefaultJsonParser(onProtoPoisoning, onConstructorPoisoning);
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, bytes, done) => {
    rawBodies.set(request, bytes as Buffer);
    if (!isUtf8(bytes as Buffer)) {
      done(httpError('TEXT_INVALID', 'The body is not valid UTF-8'), undefined);
      return;
    }
    parseJson(request, (bytes as Buffer).toString('utf8'), (error, body) => {
      if (error) return done(error, undefined);
      const problem = findBadText(body, []);
      return problem ? done(textInvalid(problem), undefined) : done(null, body);
    });
  });
  // A form's fields, for the routes that say they take one (FORM_BODY); the same rules as JSON's text.
  fastify.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer' }, (request, bytes, done) => {
    if ((request.routeOptions.config as unknown as Record<string, unknown>)[FORM_BODY] !== true) {
      done(httpError('MEDIA_TYPE_UNSUPPORTED', 'Send the body as JSON (application/json)'), undefined);
      return;
    }
    rawBodies.set(request, bytes as Buffer);
    if (!isUtf8(bytes as Buffer)) {
      done(httpError('TEXT_INVALID', 'The body is not valid UTF-8'), undefined);
      return;
    }
    const fields = Object.fromEntries(new URLSearchParams((bytes as Buffer).toString('utf8')));
    const problem = findBadText(fields, []);
    return problem ? done(textInvalid(problem), undefined) : done(null, fields);
  });
}
