import { type ForgeCall, repositoryApiUrl, statusCall } from '@wharf/contract/forge';
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
export function forgeHeaders(target: StatusTarget): Record<string, string> {
  const auth: Record<string, string> =
    target.api === 'gitlab'
      ? { 'private-token': target.token }
      : { authorization: `Bearer ${target.token}`, accept: 'application/vnd.github+json' };
  return { ...auth, 'content-type': 'application/json' };
}

/** A call as fetch sends it. */
export function forgeRequest(target: StatusTarget, forgeCall: ForgeCall): { url: string; init: RequestInit } {
  const init = { method: forgeCall.method, headers: forgeHeaders(target), body: JSON.stringify(forgeCall.body) };
  return { url: forgeCall.url, init };
}

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
  const { url, init } = statusRequest(target, status);
  try {
    const answer = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
    if (answer.ok) return null;
    return `${answer.status} ${(await answer.text()).slice(0, 200)}`;
  } catch (error) {
    return (error as Error).message;
  }
}
