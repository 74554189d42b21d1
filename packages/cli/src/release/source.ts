import { readFile } from 'node:fs/promises';
import {
  COMMIT_PATTERN,
  type ReleaseSource,
  SOURCE_LIMITS,
  SOURCE_URL_FIELDS,
  SOURCE_URL_PATTERN,
} from '@wharf/contract/upload';

type Env = Record<string, string | undefined>;

/** What the CI job's event file says of its commit (GitHub, Gitea and Forgejo Actions). */
interface ActionsEvent {
  head_commit?: { message?: string; author?: { name?: string } };
  pull_request?: { number?: number; html_url?: string; head?: { sha?: string; ref?: string } };
}

const joined = (...parts: (string | undefined)[]) => (parts.every(Boolean) ? parts.join('') : undefined);
const numberOf = (value: string | undefined) => (value && /^[1-9]\d*$/.test(value) ? Number(value) : undefined);

async function actionsSource(env: Env): Promise<ReleaseSource> {
  const event = env.GITHUB_EVENT_PATH
    ? (JSON.parse(await readFile(env.GITHUB_EVENT_PATH, 'utf8').catch(() => '{}')) as ActionsEvent)
    : {};
  const repository = joined(env.GITHUB_SERVER_URL, '/', env.GITHUB_REPOSITORY);
  // A pull request's job checks out a merge commit: its head is the commit people know.
  const commit = event.pull_request?.head?.sha ?? env.GITHUB_SHA;
  const pullRequest = event.pull_request?.number;
  const forge = env.FORGEJO_ACTIONS ? 'Forgejo' : env.GITEA_ACTIONS ? 'Gitea' : 'GitHub';
  // GitHub's pull requests are at /pull/N, Gitea's and Forgejo's at /pulls/N.
  const pulls = forge === 'GitHub' ? '/pull/' : '/pulls/';
  return {
    commit,
    message: event.head_commit?.message,
    branch: env.GITHUB_HEAD_REF || env.GITHUB_REF_NAME,
    author: event.head_commit?.author?.name ?? env.GITHUB_ACTOR,
    commitUrl: joined(repository, '/commit/', commit),
    pullRequest,
    pullRequestUrl: event.pull_request?.html_url ?? joined(repository, pulls, pullRequest?.toString()),
    ci: `${forge} Actions`,
    ciRunUrl: joined(repository, '/actions/runs/', env.GITHUB_RUN_ID),
  };
}

function gitlabSource(env: Env): ReleaseSource {
  const mergeRequest = numberOf(env.CI_MERGE_REQUEST_IID);
  return {
    commit: env.CI_COMMIT_SHA,
    message: env.CI_COMMIT_MESSAGE,
    branch: env.CI_MERGE_REQUEST_SOURCE_BRANCH_NAME ?? env.CI_COMMIT_REF_NAME,
    author: env.CI_COMMIT_AUTHOR,
    commitUrl: joined(env.CI_PROJECT_URL, '/-/commit/', env.CI_COMMIT_SHA),
    pullRequest: mergeRequest,
    pullRequestUrl: joined(env.CI_PROJECT_URL, '/-/merge_requests/', mergeRequest?.toString()),
    ci: 'GitLab CI',
    ciRunUrl: env.CI_PIPELINE_URL ?? env.CI_JOB_URL,
  };
}

function woodpeckerSource(env: Env): ReleaseSource {
  return {
    commit: env.CI_COMMIT_SHA,
    message: env.CI_COMMIT_MESSAGE,
    branch: env.CI_COMMIT_SOURCE_BRANCH || env.CI_COMMIT_BRANCH,
    author: env.CI_COMMIT_AUTHOR,
    commitUrl: env.CI_PIPELINE_FORGE_URL ?? env.CI_COMMIT_LINK,
    pullRequest: numberOf(env.CI_COMMIT_PULL_REQUEST),
    ci: 'Woodpecker',
    ciRunUrl: env.CI_PIPELINE_URL,
  };
}

function droneSource(env: Env): ReleaseSource {
  return {
    commit: env.DRONE_COMMIT_SHA,
    message: env.DRONE_COMMIT_MESSAGE,
    branch: env.DRONE_SOURCE_BRANCH || env.DRONE_COMMIT_BRANCH,
    author: env.DRONE_COMMIT_AUTHOR_NAME || env.DRONE_COMMIT_AUTHOR,
    commitUrl: env.DRONE_COMMIT_LINK,
    pullRequest: numberOf(env.DRONE_PULL_REQUEST),
    ci: 'Drone',
    ciRunUrl: env.DRONE_BUILD_LINK,
  };
}

function circleSource(env: Env): ReleaseSource {
  return {
    commit: env.CIRCLE_SHA1,
    branch: env.CIRCLE_BRANCH,
    author: env.CIRCLE_USERNAME,
    pullRequest: numberOf(env.CIRCLE_PR_NUMBER),
    pullRequestUrl: env.CIRCLE_PULL_REQUEST,
    ci: 'CircleCI',
    ciRunUrl: env.CIRCLE_BUILD_URL,
  };
}

function bitbucketSource(env: Env): ReleaseSource {
  const origin = env.BITBUCKET_GIT_HTTP_ORIGIN;
  const pullRequest = numberOf(env.BITBUCKET_PR_ID);
  return {
    commit: env.BITBUCKET_COMMIT,
    branch: env.BITBUCKET_BRANCH,
    commitUrl: joined(origin, '/commits/', env.BITBUCKET_COMMIT),
    pullRequest,
    pullRequestUrl: joined(origin, '/pull-requests/', pullRequest?.toString()),
    ci: 'Bitbucket Pipelines',
    ciRunUrl: joined(origin, '/pipelines/results/', env.BITBUCKET_BUILD_NUMBER),
  };
}

/** The CI system this job runs in, by the variables each sets, and what it says of the source. */
async function ciSource(env: Env): Promise<ReleaseSource> {
  if (env.GITHUB_ACTIONS === 'true') return actionsSource(env);
  if (env.GITLAB_CI === 'true') return gitlabSource(env);
  if (env.CI === 'woodpecker') return woodpeckerSource(env);
  if (env.DRONE === 'true') return droneSource(env);
  if (env.CIRCLECI === 'true') return circleSource(env);
  if (env.BITBUCKET_BUILD_NUMBER) return bitbucketSource(env);
  return {};
}

/** The last commit as git tells it, for what the CI (or no CI) left out. */
export interface GitCommitInfo {
  commit: string;
  author: string;
  message: string;
}

/**
 * What is kept of a field: trimmed, cut to its limit; a link only when http(s), a commit only when
 * hex. A CI's odd variable never costs the upload: what the server would refuse is left out.
 */
function tidy(source: ReleaseSource): ReleaseSource {
  const kept: ReleaseSource = {};
  const textFields = ['message', 'branch', 'author', 'ci'] as const;
  for (const field of textFields) {
    const value = source[field]?.trim();
    if (value) kept[field] = value.slice(0, SOURCE_LIMITS[field]);
  }
  const commit = source.commit?.trim();
  if (commit && COMMIT_PATTERN.test(commit) && commit.length <= SOURCE_LIMITS.commit) kept.commit = commit;
  for (const field of SOURCE_URL_FIELDS) {
    const value = source[field]?.trim();
    if (value && value.length <= SOURCE_LIMITS.url && SOURCE_URL_PATTERN.test(value)) kept[field] = value;
  }
  if (source.pullRequest !== undefined && Number.isSafeInteger(source.pullRequest) && source.pullRequest > 0)
    kept.pullRequest = source.pullRequest;
  return kept;
}

/**
 * Where the release comes from: the flags first, then the CI job's variables, then git's last
 * commit for what is still missing (the commit a CI checked out is git's HEAD too).
 */
export async function releaseSource(
  env: Env,
  flags: ReleaseSource,
  lastCommit: () => Promise<GitCommitInfo | null>,
): Promise<ReleaseSource> {
  const fromCi = tidy(await ciSource(env));
  const merged = { ...fromCi, ...tidy(flags) };
  if (!merged.commit || !merged.author || !merged.message) {
    const git = await lastCommit();
    if (git && (!merged.commit || merged.commit === git.commit))
      return tidy({ ...git, ...merged, commit: merged.commit ?? git.commit });
  }
  return merged;
}
