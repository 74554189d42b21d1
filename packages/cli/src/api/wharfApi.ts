import type { Blob } from 'node:buffer';
import { randomUUID } from 'node:crypto';
import { routePath } from '@wharf/contract/upload';
import { CliFailure, exitCodes } from '../failures.ts';
import type { BodyCoding } from '../lib/compress.ts';
import { version } from '../version.ts';
import { type ReadAnswer, UnexpectedAnswer } from './answerChecks.ts';
import { ApiError, causeOf, FileChangedError, NetworkError, readErrorAnswer } from './apiErrors.ts';
import { type ExchangeAnswer, exchange } from './httpExchange.ts';
import { isRetryable, type RetryPolicy, retryDelay, sleep } from './retry.ts';

export interface Connection {
  /** The Wharf server, e.g. http://localhost:8080. */
  url: URL;
  /** Null for the calls of `wharf login` before it has one. */
  token: string | null;
  retry: RetryPolicy;
  /** Told about each retry, so a user watching a slow upload knows why. */
  onRetry(message: string): void;
}

/** A request body, built anew for each attempt: a stream can be read only once. */
export interface RequestBody {
  content: string | Blob | Buffer | AsyncIterable<Uint8Array>;
  contentType: string;
  /** The content coding the content is in (`Content-Encoding`), when compressed. */
  contentEncoding?: BodyCoding;
}

/** One call: the route's address, its path parameters, how its answer is read, and what it sends. */
export interface Call<T> {
  route: { method: string; path: string };
  params: Record<string, string>;
  read: ReadAnswer<T>;
  body?: () => RequestBody;
  /** A call that creates something carries an Idempotency-Key (see `send`). */
  idempotent?: boolean;
  query?: Record<string, string | number | undefined>;
}

type Attempt = ExchangeAnswer | { networkProblem: unknown };

/** The answer as read by the call, so a server of another version fails here, clearly. */
function readAnswer<T>(read: ReadAnswer<T>, path: string, text: string): T {
  let value: unknown;
  try {
    value = text ? JSON.parse(text) : undefined;
  } catch {
    value = text;
  }
  try {
    return read(value);
  } catch (error) {
    if (!(error instanceof UnexpectedAnswer)) throw error;
    throw new CliFailure(
      exitCodes.unexpected,
      `The server's answer to ${path} is not what this wharf ${version} expects; is the server another version? (${error.message})`,
    );
  }
}

/**
 * A redirect is not followed: the token would go wherever it points, and a body already streamed
 * cannot be sent again. The user is told the address to give instead (an http:// URL that a
 * proxy sends on to https://, say).
 */
function redirected(base: string, location: string | null) {
  const target = location ? new URL(location, `${base}/`) : null;
  const advice = target ? `; give --url ${target.origin} if that is where Wharf is` : '';
  return new CliFailure(
    exitCodes.unreachable,
    `${base} answers with a redirect${target ? ` to ${target.href}` : ''}, which wharf does not follow${advice}`,
  );
}

/** Sends the contract's calls to a server, each retried on network errors and 5xx answers. */
export function apiClient(connection: Connection) {
  const base = connection.url.href.replace(/\/+$/, '');

  async function attempt(
    method: string,
    url: string,
    body: RequestBody | undefined,
    idempotencyKey: string | undefined,
  ): Promise<Attempt> {
    try {
      return await exchange({
        method: method.toUpperCase(),
        url,
        headers: {
          ...(connection.token ? { authorization: `Bearer ${connection.token}` } : {}),
          'user-agent': `wharf-cli/${version}`,
          ...(body ? { 'content-type': body.contentType } : {}),
          ...(body?.contentEncoding ? { 'content-encoding': body.contentEncoding } : {}),
          ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
        },
        body: body?.content,
      });
    } catch (error) {
      if (error instanceof FileChangedError) throw error;
      return { networkProblem: error };
    }
  }

  /**
   * Sends a call, trying again on network errors and 5xx answers. A call that creates something
   * carries one Idempotency-Key on all its tries: when an answer is lost after the server acted,
   * the next try gets that answer instead of a second release.
   */
  async function send<T>({ route, params, read, body, idempotent, query = {} }: Call<T>): Promise<T> {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) if (value !== undefined) search.set(key, String(value));
    const path = routePath(route.path, params) + (search.size > 0 ? `?${search}` : '');
    const idempotencyKey = idempotent ? randomUUID() : undefined;
    for (let tries = 1; ; tries++) {
      const answer = await attempt(route.method, base + path, body?.(), idempotencyKey);
      const lastTry = tries >= connection.retry.attempts;
      let problem: string;
      if ('networkProblem' in answer) {
        problem = causeOf(answer.networkProblem);
        if (lastTry) throw new NetworkError(problem, { cause: answer.networkProblem });
      } else if (answer.status >= 300 && answer.status < 400) {
        throw redirected(base, answer.location);
      } else if (answer.status < 400) {
        return readAnswer(read, path, answer.text);
      } else {
        const { code, message } = readErrorAnswer(answer.status, answer.statusText, answer.text);
        if (lastTry || !isRetryable(answer.status, code)) throw new ApiError(answer.status, code, message, path);
        problem = `${answer.status} ${message}`;
      }
      const delay = retryDelay(connection.retry, tries - 1);
      connection.onRetry(
        `${route.method.toUpperCase()} ${path}: ${problem}; trying again in ${(delay / 1000).toFixed(1)} s`,
      );
      await sleep(delay);
    }
  }

  return { send };
}
