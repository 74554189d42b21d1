import type { Blob } from 'node:buffer';
import { randomUUID } from 'node:crypto';
import { api, type Route, type RouteBody, type RouteResponse, routePath } from '@wharf/contract';
import { CliFailure, exitCodes } from '../failures.ts';
import { type BodyCoding, compress } from '../lib/compress.ts';
import { version } from '../version.ts';
import { ApiError, causeOf, FileChangedError, NetworkError, readErrorAnswer } from './apiErrors.ts';
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

type Attempt = { status: number; statusText: string; text: string } | { networkProblem: unknown };

/**
 * A streamed body without its empty chunks. Node's fetch sends a stream chunked and stops for good
 * at an empty chunk (it waits for a drain that never comes), so the server waits for the rest
 * until a timeout: a tar of an empty file (`.nojekyll`) holds one. Every streamed body goes
 * through here, whoever made it.
 */
async function* withoutEmptyChunks(chunks: AsyncIterable<Uint8Array>) {
  for await (const chunk of chunks) if (chunk.byteLength > 0) yield chunk;
}

const sendable = (content: RequestBody['content']) =>
  typeof content === 'string' || Buffer.isBuffer(content) || !(Symbol.asyncIterator in content)
    ? content
    : withoutEmptyChunks(content);

/** The calls of the contract the CLI makes, each retried on network errors and 5xx answers. */
export function wharfApi(connection: Connection) {
  const base = connection.url.href.replace(/\/+$/, '');

  async function attempt(
    route: Route,
    url: string,
    body: RequestBody | undefined,
    idempotencyKey: string | undefined,
  ): Promise<Attempt> {
    try {
      const response = await fetch(url, {
        method: route.method.toUpperCase(),
        headers: {
          ...(connection.token ? { authorization: `Bearer ${connection.token}` } : {}),
          'user-agent': `wharf-cli/${version}`,
          ...(body ? { 'content-type': body.contentType } : {}),
          ...(body?.contentEncoding ? { 'content-encoding': body.contentEncoding } : {}),
          ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
        },
        body: (body ? sendable(body.content) : undefined) as RequestInit['body'],
        duplex: 'half',
      } as RequestInit);
      return { status: response.status, statusText: response.statusText, text: await response.text() };
    } catch (error) {
      // A blob of a file refuses to be read once the file changes: no retry can help that.
      if ((error as { cause?: { name?: string } }).cause?.name === 'NotReadableError') throw new FileChangedError();
      return { networkProblem: error };
    }
  }

  /**
   * Sends a call, trying again on network errors and 5xx answers. A call that creates something
   * carries one Idempotency-Key on all its tries: when an answer is lost after the server acted,
   * the next try gets that answer instead of a second release.
   */
  async function send<R extends Route>(
    route: R,
    params: Record<string, string>,
    body?: () => RequestBody,
    options: { idempotent?: boolean } = {},
    query: Record<string, string | number | undefined> = {},
  ): Promise<RouteResponse<R>> {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) if (value !== undefined) search.set(key, String(value));
    const path = routePath(route.path, params) + (search.size > 0 ? `?${search}` : '');
    const idempotencyKey = options.idempotent ? randomUUID() : undefined;
    for (let tries = 1; ; tries++) {
      const answer = await attempt(route, base + path, body?.(), idempotencyKey);
      const lastTry = tries >= connection.retry.attempts;
      let problem: string;
      if ('networkProblem' in answer) {
        problem = causeOf(answer.networkProblem);
        if (lastTry) throw new NetworkError(problem, { cause: answer.networkProblem });
      } else if (answer.status < 400) {
        return readAnswer(route, path, answer.text);
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

  const json = (value: unknown) => () => ({ content: JSON.stringify(value), contentType: 'application/json' });

  return {
    deployBase: (siteId: string, branch: string | undefined) =>
      send(api.getDeployBase, { siteId }, undefined, {}, { branch }),
    /** The manifest goes compressed when the server takes a coding: a site's manifest is mostly paths. */
    startDeploy: async (siteId: string, body: RouteBody<typeof api.createDeploy>, coding: BodyCoding | null) => {
      const text = JSON.stringify(body);
      const content = coding ? await compress(coding, Buffer.from(text)) : text;
      const contentEncoding = coding ?? undefined;
      const request = () => ({ content, contentType: 'application/json', contentEncoding });
      return {
        deploy: await send(api.createDeploy, { siteId }, request, { idempotent: true }),
        sentBytes: content.length,
      };
    },
    /** One file: its bytes, or (`encoded`) a compressed stream of them made anew for each try. */
    uploadDeployFile: (deployId: string, hash: string, body: () => RequestBody) =>
      send(api.uploadDeployFile, { deployId, hash }, body),
    /** A tar of files, its chunks as they are (fetch would copy them into one buffer first), or compressed. */
    uploadDeployFiles: (deployId: string, tar: Uint8Array[] | Buffer, contentEncoding?: BodyCoding) =>
      send(api.uploadDeployFiles, { deployId }, () => ({
        content: Buffer.isBuffer(tar)
          ? tar
          : (async function* () {
              yield* tar;
            })(),
        contentType: 'application/x-tar',
        contentEncoding,
      })),
    finalizeDeploy: (deployId: string) => send(api.finalizeDeploy, { deployId }),
    uploadRelease: (siteId: string, body: () => RequestBody) =>
      send(api.uploadRelease, { siteId }, body, { idempotent: true }),
    listBranches: (siteId: string) => send(api.listBranches, { siteId }),
    deleteBranch: (siteId: string, branchId: string) => send(api.deleteBranch, { siteId, branchId }),
    setBranchRelease: (siteId: string, branchId: string, releaseId: string) =>
      send(api.setBranchRelease, { siteId, branchId }, json({ release: releaseId })),
    listReleases: (siteId: string, query: { page: number; size: number; search?: string }) =>
      send(api.listReleases, { siteId }, undefined, {}, query),
    startCliLogin: (machine: string) => send(api.startCliLogin, {}, json({ machine })),
    claimCliLogin: (cliLoginId: string, secret: string) => send(api.claimCliLogin, { cliLoginId }, json({ secret })),
    getUser: () => send(api.getUser, {}),
    getApiToken: (apiTokenId: string) => send(api.getApiToken, { apiTokenId }),
    deleteApiToken: (apiTokenId: string) => send(api.deleteApiToken, { apiTokenId }),
  };
}

export type WharfApi = ReturnType<typeof wharfApi>;

/** The answer checked against the contract, so a server of another version fails here, clearly. */
function readAnswer<R extends Route>(route: R, path: string, text: string): RouteResponse<R> {
  let value: unknown;
  try {
    value = text ? JSON.parse(text) : undefined;
  } catch {
    value = text;
  }
  const parsed = route.response.safeParse(value);
  if (parsed.success) return parsed.data as RouteResponse<R>;
  throw new CliFailure(
    exitCodes.unexpected,
    `The server's answer to ${path} is not what this wharf ${version} expects; is the server another version? (${parsed.error.issues[0]?.message})`,
  );
}
