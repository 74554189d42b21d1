// Without a schema library: the CLI's upload path builds these calls and loads none.

/**
 * The forge APIs Wharf reports to: GitHub (and GitHub Enterprise), GitLab, and Gitea, whose API
 * Forgejo speaks too. Gitea's statuses and comments have GitHub's shape.
 */
export type ForgeApi = 'github' | 'gitlab' | 'gitea';

/** One request to a forge's API: its method, address and JSON body. Who sends it adds the token. */
export interface ForgeCall {
  method: 'POST' | 'PATCH' | 'PUT';
  url: string;
  body: Record<string, unknown>;
}

/** What a build or a deploy is reported as: pending while it runs, then how it ended. */
export type ForgeState = 'running' | 'succeeded' | 'failed' | 'cancelled';

export interface ForgeStatus {
  state: ForgeState;
  /** Names the check among the CI's others: `wharf`, `wharf/{site}`. */
  context: string;
  description: string;
  /** Where the status links to (the preview, the build); none leaves the link out. */
  targetUrl: string | null;
}

const GITHUB_STATES: Record<ForgeState, string> = {
  running: 'pending',
  succeeded: 'success',
  failed: 'failure',
  cancelled: 'error',
};
const GITLAB_STATES: Record<ForgeState, string> = {
  running: 'running',
  succeeded: 'success',
  failed: 'failed',
  cancelled: 'canceled',
};

/** GitHub and Gitea cut a status's description at 140 characters; so does this, with an ellipsis. */
const shortened = (text: string) => (text.length > 140 ? `${text.slice(0, 139)}…` : text);

/**
 * Where a forge's API keeps a repository, from the API's base and the repository's name there:
 * GitHub and Gitea `{api}/repos/{owner}/{name}`, GitLab `{api}/projects/{id, or the escaped path}`.
 */
export function repositoryApiUrl(forge: ForgeApi, apiBase: string, repository: string) {
  const base = apiBase.replace(/\/+$/, '');
  return forge === 'gitlab' ? `${base}/projects/${encodeURIComponent(repository)}` : `${base}/repos/${repository}`;
}

const under = (repositoryApi: string, path: string) => `${repositoryApi.replace(/\/+$/, '')}/${path}`;

/**
 * The commit status: GitHub's and Gitea's `POST …/statuses/{sha}` (state, context), GitLab's
 * (state, name), each in its own words for the states.
 */
export function statusCall(forge: ForgeApi, repositoryApi: string, commit: string, status: ForgeStatus): ForgeCall {
  const common = {
    description: shortened(status.description),
    ...(status.targetUrl ? { target_url: status.targetUrl } : {}),
  };
  const body =
    forge === 'gitlab'
      ? { ...common, state: GITLAB_STATES[status.state], name: status.context }
      : { ...common, state: GITHUB_STATES[status.state], context: status.context };
  return { method: 'POST', url: under(repositoryApi, `statuses/${commit}`), body };
}

/** Where a pull request's comments live: an issue's comments on GitHub and Gitea, a merge request's notes on GitLab. */
const commentsPath = (forge: ForgeApi, pullRequest: number) =>
  forge === 'gitlab' ? `merge_requests/${pullRequest}/notes` : `issues/${pullRequest}/comments`;

export function newCommentCall(forge: ForgeApi, repositoryApi: string, pullRequest: number, body: string): ForgeCall {
  return { method: 'POST', url: under(repositoryApi, commentsPath(forge, pullRequest)), body: { body } };
}

/** The same comment changed: PATCH on GitHub and Gitea, PUT on GitLab. */
export function editCommentCall(
  forge: ForgeApi,
  repositoryApi: string,
  pullRequest: number,
  commentId: string,
  body: string,
): ForgeCall {
  if (forge === 'gitlab')
    return {
      method: 'PUT',
      url: under(repositoryApi, `${commentsPath(forge, pullRequest)}/${commentId}`),
      body: { body },
    };
  return { method: 'PATCH', url: under(repositoryApi, `issues/comments/${commentId}`), body: { body } };
}

/**
 * One page of a pull request's comments, oldest first. Gitea and Forgejo page with `limit`, GitHub
 * with `per_page`: each ignores the other's.
 */
export function commentsPageUrl(forge: ForgeApi, repositoryApi: string, pullRequest: number, page: number) {
  const comments = under(repositoryApi, commentsPath(forge, pullRequest));
  return forge === 'gitlab'
    ? `${comments}?per_page=100&page=${page}&sort=asc`
    : `${comments}?per_page=100&limit=50&page=${page}`;
}
