import type { ReportTarget } from './target.ts';

/** What a build's state is reported as: pending while it runs, then how it ended. */
export type ReportedState = 'running' | 'succeeded' | 'failed' | 'cancelled';

/** One request to a forge's API: its method, address and JSON body. */
export interface ForgeCall {
  method: 'POST' | 'PATCH' | 'PUT';
  url: URL;
  body: Record<string, unknown>;
}

export interface CommitStatus {
  state: ReportedState;
  /** Names the check among others: `wharf/{site}`. */
  context: string;
  description: string;
  targetUrl: string;
}

const GITHUB_STATES: Record<ReportedState, string> = {
  running: 'pending',
  succeeded: 'success',
  failed: 'failure',
  cancelled: 'error',
};
const GITLAB_STATES: Record<ReportedState, string> = {
  running: 'running',
  succeeded: 'success',
  failed: 'failed',
  cancelled: 'canceled',
};

/** GitHub and Gitea cut a status's description at 140 characters; so does this, with an ellipsis. */
const shortened = (text: string) => (text.length > 140 ? `${text.slice(0, 139)}…` : text);

const under = (target: ReportTarget, path: string) => new URL(`${target.api.replace(/\/+$/, '')}/${path}`);

/**
 * The commit status call: GitHub's and Gitea's `POST …/statuses/{sha}` (state, context), GitLab's
 * `POST …/statuses/{sha}` (state, name), each in its own words for the states.
 */
export function statusCall(target: ReportTarget, commit: string, status: CommitStatus): ForgeCall {
  const common = { target_url: status.targetUrl, description: shortened(status.description) };
  if (target.forge === 'gitlab')
    return {
      method: 'POST',
      url: under(target, `statuses/${commit}`),
      body: { ...common, state: GITLAB_STATES[status.state], name: status.context },
    };
  return {
    method: 'POST',
    url: under(target, `statuses/${commit}`),
    body: { ...common, state: GITHUB_STATES[status.state], context: status.context },
  };
}

/** A new comment on a pull request (an issue's comments on GitHub and Gitea, a merge request's notes on GitLab). */
export function newCommentCall(target: ReportTarget, pullRequest: number, body: string): ForgeCall {
  const path = target.forge === 'gitlab' ? `merge_requests/${pullRequest}/notes` : `issues/${pullRequest}/comments`;
  return { method: 'POST', url: under(target, path), body: { body } };
}

/** The same comment changed: PATCH on GitHub and Gitea, PUT on GitLab. */
export function editCommentCall(target: ReportTarget, pullRequest: number, commentId: string, body: string): ForgeCall {
  if (target.forge === 'gitlab')
    return { method: 'PUT', url: under(target, `merge_requests/${pullRequest}/notes/${commentId}`), body: { body } };
  return { method: 'PATCH', url: under(target, `issues/comments/${commentId}`), body: { body } };
}

/**
 * GitLab answers 400 to a status it already has ("Cannot transition status via :run from
 * :running"): a report sent again after a lost answer has been made all the same.
 */
export const alreadyReported = (target: ReportTarget, status: number, body: unknown) =>
  target.forge === 'gitlab' && status === 400 && JSON.stringify(body ?? '').includes('Cannot transition status');

/** The headers of every call: the token as a bearer (all three take it so), and GitHub's media type. */
export function forgeHeaders(target: ReportTarget, token: string): Record<string, string> {
  return {
    authorization: `Bearer ${token}`,
    'user-agent': 'Wharf',
    ...(target.forge === 'github'
      ? { accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28' }
      : {}),
  };
}
