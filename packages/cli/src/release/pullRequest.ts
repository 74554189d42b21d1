import { readFile } from 'node:fs/promises';

/** Where a commit status is posted: the forge's API and what it needs to name the commit. */
export interface StatusTarget {
  /** `github` also covers Gitea and Forgejo, whose statuses API has the same shape. */
  api: 'github' | 'gitlab';
  /** The API's base URL, e.g. https://api.github.com or https://gitlab.example.com/api/v4. */
  baseUrl: string;
  /** `owner/repo` on GitHub, Gitea and Forgejo; the project's id on GitLab. */
  repository: string;
  sha: string;
  token: string;
}

/** A pull or merge request a CI job runs for, and the preview branch it deploys to. */
export interface PullRequest {
  forge: 'GitHub' | 'Gitea' | 'Forgejo' | 'GitLab' | 'Bitbucket';
  number: number;
  /** `pr-{number}`: one preview per pull request, deleted when it closes. */
  branch: string;
  /** Null without a token for the forge: the preview is deployed, no status is posted. */
  status: StatusTarget | null;
}

type Env = Record<string, string | undefined>;

const previewBranch = (number: number) => `pr-${number}`;

interface ActionsEvent {
  pull_request?: { number?: number; head?: { sha?: string } };
  number?: number;
}

/** GitHub Actions, and Gitea and Forgejo Actions, which set the same GITHUB_* variables. */
async function actionsPullRequest(env: Env): Promise<PullRequest | null> {
  if (!env.GITHUB_EVENT_NAME?.startsWith('pull_request')) return null;
  const event = env.GITHUB_EVENT_PATH
    ? (JSON.parse(await readFile(env.GITHUB_EVENT_PATH, 'utf8').catch(() => '{}')) as ActionsEvent)
    : {};
  const number =
    event.pull_request?.number ?? event.number ?? Number(/refs\/pull\/(\d+)\//.exec(env.GITHUB_REF ?? '')?.[1]);
  if (!Number.isInteger(number)) return null;
  const forge = env.FORGEJO_ACTIONS ? 'Forgejo' : env.GITEA_ACTIONS ? 'Gitea' : 'GitHub';
  const token = forge === 'GitHub' ? env.GITHUB_TOKEN : (env.GITEA_TOKEN ?? env.GITHUB_TOKEN);
  // The commit of the pull request's head, not the merge commit the job checked out.
  const sha = event.pull_request?.head?.sha ?? env.GITHUB_SHA;
  const status =
    token && sha && env.GITHUB_REPOSITORY
      ? {
          api: 'github' as const,
          baseUrl: env.GITHUB_API_URL ?? 'https://api.github.com',
          repository: env.GITHUB_REPOSITORY,
          sha,
          token,
        }
      : null;
  return { forge, number, branch: previewBranch(number), status };
}

function gitlabMergeRequest(env: Env): PullRequest | null {
  const number = Number(env.CI_MERGE_REQUEST_IID);
  if (!env.CI_MERGE_REQUEST_IID || !Number.isInteger(number)) return null;
  const token = env.GITLAB_TOKEN;
  const status =
    token && env.CI_COMMIT_SHA && env.CI_PROJECT_ID && env.CI_API_V4_URL
      ? {
          api: 'gitlab' as const,
          baseUrl: env.CI_API_V4_URL,
          repository: env.CI_PROJECT_ID,
          sha: env.CI_COMMIT_SHA,
          token,
        }
      : null;
  return { forge: 'GitLab', number, branch: previewBranch(number), status };
}

function bitbucketPullRequest(env: Env): PullRequest | null {
  const number = Number(env.BITBUCKET_PR_ID);
  if (!env.BITBUCKET_PR_ID || !Number.isInteger(number)) return null;
  return { forge: 'Bitbucket', number, branch: previewBranch(number), status: null };
}

/** The pull or merge request this CI job runs for, if any. */
export async function pullRequestOf(env: Env): Promise<PullRequest | null> {
  return (await actionsPullRequest(env)) ?? gitlabMergeRequest(env) ?? bitbucketPullRequest(env);
}
