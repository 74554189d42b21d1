import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type FieldProblem, httpError } from './errors.ts';

/**
 * The one rule for text that comes in, whatever it names and wherever it will be stored:
 * PostgreSQL refuses a NUL in text and lone UTF-16 surrogates cannot be encoded as UTF-8, while
 * SQLite would store both. Refused at the API's edge, the two databases hold the same things.
 * With the `u` flag `\p{Cs}` matches only a surrogate that is not half of a pair.
 */
const BAD_TEXT = /[\0\p{Cs}]/u;

export const isGoodText = (text: string) => !BAD_TEXT.test(text);

const problemOf = (text: string) =>
  text.includes('\0') ? 'Must not contain the NUL character' : 'Must be valid Unicode text (a lone surrogate is not)';

const join = (path: string[]) => path.filter(Boolean).join('.');

/** The first string (or object key) of a parsed value that breaks the rule, named by its field. */
export function findBadText(value: unknown, path: string[]): FieldProblem | null {
  if (typeof value === 'string') return BAD_TEXT.test(value) ? { field: join(path), message: problemOf(value) } : null;
  if (value === null || typeof value !== 'object') return null;
  for (const [key, inner] of Object.entries(value)) {
    if (BAD_TEXT.test(key)) return { field: join([...path, key]), message: problemOf(key) };
    const problem = findBadText(inner, [...path, key]);
    if (problem) return problem;
  }
  return null;
}

export function textInvalid(problem: FieldProblem) {
  const where = problem.field || 'body';
  return httpError('TEXT_INVALID', `${where}: ${problem.message}`, [{ field: where, message: problem.message }]);
}

/** Refuses a value holding text that breaks the rule (a multipart field, an archive entry's name). */
export function mustBeGoodText(value: unknown, field: string) {
  const problem = findBadText(value, [field]);
  if (problem) throw textInvalid(problem);
}

/**
 * Each `name=value` of a query string must decode to UTF-8 text: the query parser keeps a
 * sequence it cannot decode (`%FF`, `%ED%A0%80`) as it is, which would then be looked for verbatim.
 */
function mustDecodeQuery(url: string) {
  const start = url.indexOf('?');
  // Without a percent sign there is nothing to decode, and nothing that could fail to.
  if (start === -1 || !url.includes('%', start)) return;
  for (const pair of url.slice(start + 1).split('&')) {
    try {
      decodeURIComponent(pair.replaceAll('+', ' '));
    } catch {
      throw httpError('URL_INVALID', `The query "${pair.slice(0, 100)}" is not valid percent-encoded UTF-8`);
    }
  }
}

/**
 * The text of a request's URL (path parameters, query) under the rule, before anything reads
 * it. Headers need no check here: Node's parser already refuses control characters in them, and
 * decodes them as Latin-1, which cannot make a lone surrogate.
 */
export function mustHaveGoodUrlText(request: FastifyRequest) {
  mustDecodeQuery(request.url);
  const problem = findBadText(request.params, ['path']) ?? findBadText(request.query, ['query']);
  if (problem) throw textInvalid(problem);
}

/** Marks the routes bound from the contract, which apply the rule themselves once the caller is admitted. */
export const CONTRACT_ROUTE = 'wharfContractRoute';

/** The same rule for the routes outside the contract (sign-in flows, the API reference, metrics). */
export function checkUrlTextOfOtherRoutes(fastify: FastifyInstance) {
  fastify.addHook('onRequest', (request, _reply, done) => {
    if ((request.routeOptions.config as unknown as Record<string, unknown>)[CONTRACT_ROUTE] === true) return done();
    try {
      mustHaveGoodUrlText(request);
      done();
    } catch (error) {
      done(error as Error);
    }
  });
}
