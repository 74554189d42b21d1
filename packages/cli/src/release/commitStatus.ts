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

/** GitHub, Gitea and Forgejo take the same call; GitLab names its fields and states its own way. */
function statusRequest(target: StatusTarget, status: CommitStatus): { url: string; init: RequestInit } {
  const base = target.baseUrl.replace(/\/+$/, '');
  const description = status.description.slice(0, 140);
  if (target.api === 'gitlab') {
    return {
      url: `${base}/projects/${encodeURIComponent(target.repository)}/statuses/${target.sha}`,
      init: {
        method: 'POST',
        headers: { 'private-token': target.token, 'content-type': 'application/json' },
        body: JSON.stringify({
          state: status.state === 'success' ? 'success' : 'failed',
          name: STATUS_CONTEXT,
          ...(status.url ? { target_url: status.url } : {}),
          description,
        }),
      },
    };
  }
  return {
    url: `${base}/repos/${target.repository}/statuses/${target.sha}`,
    init: {
      method: 'POST',
      headers: {
        authorization: `Bearer ${target.token}`,
        accept: 'application/vnd.github+json',
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        state: status.state,
        context: STATUS_CONTEXT,
        ...(status.url ? { target_url: status.url } : {}),
        description,
      }),
    },
  };
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
