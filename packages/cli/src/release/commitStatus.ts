import { type ForgeCall, repositoryApiUrl, statusCall } from '@wharf/contract/forge';
import { type Exchange, type ExchangeAnswer, exchange } from '../api/httpExchange.ts';
import type { StatusTarget } from './pullRequest.ts';

/** The name the status carries on the forge, beside the CI's own checks. */
export const STATUS_CONTEXT = 'wharf';

export interface CommitStatus {
  state: 'success' | 'failure';
  /** The preview's URL: where the status links to. */
  url: string | null;
  description: string;
}

const TIMEOUT_MS = 15_000;

/** The token as this forge takes it: GitLab's own header, a bearer elsewhere; JSON both ways. */
function forgeHeaders(target: StatusTarget): Record<string, string> {
  const auth: Record<string, string> =
    target.api === 'gitlab'
      ? { 'private-token': target.token }
      : { authorization: `Bearer ${target.token}`, accept: 'application/vnd.github+json' };
  return { ...auth, 'content-type': 'application/json' };
}

/**
 * A call to the forge as the CLI's one exchange sends it (not fetch: loading Node's fetch would
 * cost a deploy from CI about 90 ms of its start), bounded as a whole.
 */
export function forgeRequest(target: StatusTarget, forgeCall: ForgeCall | { method: 'GET'; url: string }): Exchange {
  const body = 'body' in forgeCall ? JSON.stringify(forgeCall.body) : undefined;
  return { method: forgeCall.method, url: forgeCall.url, headers: forgeHeaders(target), body, timeoutMs: TIMEOUT_MS };
}

/** Whether the forge took the call. */
export const accepted = (answer: ExchangeAnswer) => answer.status >= 200 && answer.status < 300;

/** The forge's refusal as a warning says it: the status and the start of its answer. */
export const refusal = (answer: ExchangeAnswer) => `${answer.status} ${answer.text.slice(0, 200)}`;

/** The repository's address in the forge's API. */
export const repositoryApiOf = (target: StatusTarget) =>
  repositoryApiUrl(target.api, target.baseUrl, target.repository);

function statusRequest(target: StatusTarget, status: CommitStatus) {
  return forgeRequest(
    target,
    statusCall(target.api, repositoryApiOf(target), target.sha, {
      state: status.state === 'success' ? 'succeeded' : 'failed',
      context: STATUS_CONTEXT,
      description: status.description,
      targetUrl: status.url,
    }),
  );
}

/**
 * Posts a commit status named `wharf` on the pull request's commit. A forge that refuses or cannot
 * be reached is reported, never fatal: the preview is live either way. Answers null or the problem.
 */
export async function postCommitStatus(target: StatusTarget, status: CommitStatus): Promise<string | null> {
  try {
    const answer = await exchange(statusRequest(target, status));
    return accepted(answer) ? null : refusal(answer);
  } catch (error) {
    return (error as Error).message;
  }
}
