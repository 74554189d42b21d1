import type { CodeHostRepository } from '@wharf/contract';
import { failureText, type OutsideFetch } from '../../../outbound/outsideServices.ts';

const CALL_TIMEOUT_MS = 15_000;

/**
 * A code host's answer other than success: `status` null when it did not answer at all. `message`
 * is the host's own words (its `message` field, or the start of its answer) for the person.
 */
export class CodeHostAnswerError extends Error {
  constructor(
    readonly status: number | null,
    message: string,
  ) {
    super(message);
  }
}

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export type RepositoryApiCall = <T>(method: Method, path: string, body?: Record<string, unknown>) => Promise<T>;

/** Calls below a code host's API with an account's token, through the outside fetch (the operator's CAs count). */
export function repositoryApiCall(fetch: OutsideFetch, apiBase: URL, token: string): RepositoryApiCall {
  return async <T>(method: Method, path: string, body?: Record<string, unknown>) => {
    const url = new URL(path, apiBase);
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'application/json',
          'user-agent': 'Wharf',
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
      });
    } catch (error) {
      throw new CodeHostAnswerError(null, `${url.host} did not answer: ${failureText(error)}`);
    }
    const text = await response.text().catch(() => '');
    if (!response.ok) throw new CodeHostAnswerError(response.status, hostWords(text));
    try {
      return (text ? JSON.parse(text) : null) as T;
    } catch {
      // A proxy's page in front of the host, say: the host did not answer as its API does.
      throw new CodeHostAnswerError(null, `${url.host} answered something other than JSON`);
    }
  };
}

/** What the host said, from the fields the three put it in, short enough for a message. */
function hostWords(text: string): string {
  try {
    const body = JSON.parse(text) as { message?: unknown; error?: unknown; errors?: unknown };
    const said = [body.message, body.error, body.errors]
      .filter((part) => part !== undefined)
      .map((part) => (typeof part === 'string' ? part : JSON.stringify(part)));
    if (said.length > 0) return said.join(': ').slice(0, 300);
  } catch {
    // not JSON: the text itself
  }
  return text.slice(0, 300) || 'no explanation';
}

/** What setting a repository up for a site adds there: the webhook and a read-only deploy key. */
export interface RepositorySetup {
  webhookUrl: string;
  webhookSecret: string;
  deployKey: string;
  /** Names the key and the hook among others at the host. */
  title: string;
  /**
   * Ends the title of every key set up for this site, whatever the site was called then: a key so
   * titled that is not `deployKey` is one the site replaced, and is removed.
   */
  keyMark: string;
}

/** How one code host lists an account's repositories and adds a webhook and a deploy key to one. */
export interface RepositoryDialect {
  /** Scopes the sign-in asks for besides its own when repository access is granted. */
  scopes: string[];
  /** One page of the account's repositories, `page` from 1, and the size of a full page. */
  page(call: RepositoryApiCall, page: number): Promise<CodeHostRepository[]>;
  pageSize: number;
  find(call: RepositoryApiCall, fullName: string): Promise<CodeHostRepository>;
  setUp(call: RepositoryApiCall, fullName: string, setup: RepositorySetup): Promise<void>;
}

interface GithubLikeRepository {
  full_name: string;
  clone_url: string;
  ssh_url: string;
  html_url: string;
  default_branch: string;
  private: boolean;
  permissions?: { admin?: boolean };
  pushed_at?: string | null;
  updated_at?: string | null;
}

const fromGithubLike = (repository: GithubLikeRepository): CodeHostRepository => ({
  fullName: repository.full_name,
  httpsUrl: repository.clone_url,
  sshUrl: repository.ssh_url,
  webUrl: repository.html_url,
  defaultBranch: repository.default_branch || 'main',
  private: repository.private,
  canSetUp: repository.permissions?.admin === true,
  pushedAt: repository.pushed_at ?? repository.updated_at ?? null,
});

/** `owner/name` as a path: each part escaped, the slash kept. */
const ownerAndName = (fullName: string) => fullName.split('/').map(encodeURIComponent).join('/');

/** A key as the host lists it (`ssh-ed25519 AAAA…`, perhaps with a comment): the same key whatever its comment. */
const sameKey = (listed: string, ours: string) =>
  listed.split(' ').slice(0, 2).join(' ') === ours.split(' ').slice(0, 2).join(' ');

interface SetUpPaths {
  keys: string;
  key(id: number): string;
  hooks: string;
  hook(id: number): string;
  hookUpdate: 'PATCH' | 'PUT';
}

/**
 * The deploy key and the webhook, each added once: a key the repository has already is left,
 * a hook already sending to the site's address is brought up to date (its secret, its events),
 * so setting up again after replacing the webhook secret mends the hook instead of adding one.
 * The keys the site had before it renewed its own are removed once the new one is there: a
 * replaced key must not keep its read access (it may be why the key was replaced).
 */
async function setUpOnce(
  call: RepositoryApiCall,
  setup: RepositorySetup,
  paths: SetUpPaths,
  bodies: { key: Record<string, unknown>; hook: Record<string, unknown> },
) {
  const keys = await call<{ id: number; key: string; title?: string }[]>('GET', paths.keys);
  if (!keys.some((listed) => sameKey(listed.key, setup.deployKey))) await call('POST', paths.keys, bodies.key);
  for (const replaced of keys.filter(
    (listed) => listed.title?.endsWith(setup.keyMark) && !sameKey(listed.key, setup.deployKey),
  ))
    await call('DELETE', paths.key(replaced.id));
  const hooks = await call<{ id: number; url?: string; config?: { url?: string } }[]>('GET', paths.hooks);
  const ours = hooks.find((hook) => (hook.config?.url ?? hook.url) === setup.webhookUrl);
  if (ours) await call(paths.hookUpdate, paths.hook(ours.id), bodies.hook);
  else await call('POST', paths.hooks, bodies.hook);
}

/** GitHub and Gitea/Forgejo add a hook and a key alike; only the hook's type field differs. */
function setUpGithubLike(
  call: RepositoryApiCall,
  fullName: string,
  setup: RepositorySetup,
  hookFields: Record<string, unknown>,
) {
  const repository = `repos/${ownerAndName(fullName)}`;
  const paths: SetUpPaths = {
    keys: `${repository}/keys`,
    key: (id) => `${repository}/keys/${id}`,
    hooks: `${repository}/hooks`,
    hook: (id) => `${repository}/hooks/${id}`,
    hookUpdate: 'PATCH',
  };
  return setUpOnce(call, setup, paths, {
    key: { title: setup.title, key: setup.deployKey, read_only: true },
    hook: {
      ...hookFields,
      active: true,
      events: ['push', 'pull_request'],
      config: { url: setup.webhookUrl, content_type: 'json', secret: setup.webhookSecret },
    },
  });
}

const github: RepositoryDialect = {
  scopes: ['repo'],
  pageSize: 100,
  page: async (call, page) =>
    (
      await call<GithubLikeRepository[]>(
        'GET',
        `user/repos?per_page=100&page=${page}&sort=pushed&affiliation=owner,collaborator,organization_member`,
      )
    ).map(fromGithubLike),
  find: async (call, fullName) => fromGithubLike(await call('GET', `repos/${ownerAndName(fullName)}`)),
  setUp: (call, fullName, setup) => setUpGithubLike(call, fullName, setup, { name: 'web' }),
};

const gitea: RepositoryDialect = {
  scopes: ['write:repository'],
  pageSize: 50,
  page: async (call, page) =>
    (await call<GithubLikeRepository[]>('GET', `user/repos?limit=50&page=${page}`)).map(fromGithubLike),
  find: async (call, fullName) => fromGithubLike(await call('GET', `repos/${ownerAndName(fullName)}`)),
  setUp: (call, fullName, setup) => setUpGithubLike(call, fullName, setup, { type: 'gitea' }),
};

interface GitlabProject {
  id: number;
  path_with_namespace: string;
  http_url_to_repo: string;
  ssh_url_to_repo: string;
  web_url: string;
  default_branch: string | null;
  visibility: string;
  last_activity_at: string | null;
  permissions?: {
    project_access: { access_level: number } | null;
    group_access: { access_level: number } | null;
  };
}

/** GitLab's Maintainer role (40) and above may add hooks and deploy keys. */
const GITLAB_MAINTAINER = 40;

const fromGitlab = (project: GitlabProject): CodeHostRepository => ({
  fullName: project.path_with_namespace,
  httpsUrl: project.http_url_to_repo,
  sshUrl: project.ssh_url_to_repo,
  webUrl: project.web_url,
  defaultBranch: project.default_branch || 'main',
  private: project.visibility !== 'public',
  canSetUp:
    Math.max(
      project.permissions?.project_access?.access_level ?? 0,
      project.permissions?.group_access?.access_level ?? 0,
    ) >= GITLAB_MAINTAINER,
  pushedAt: project.last_activity_at,
});

const gitlab: RepositoryDialect = {
  scopes: ['api'],
  pageSize: 100,
  page: async (call, page) =>
    (
      await call<GitlabProject[]>('GET', `projects?membership=true&order_by=last_activity_at&per_page=100&page=${page}`)
    ).map(fromGitlab),
  find: async (call, fullName) => fromGitlab(await call('GET', `projects/${encodeURIComponent(fullName)}`)),
  setUp(call, fullName, setup) {
    const project = `projects/${encodeURIComponent(fullName)}`;
    const paths: SetUpPaths = {
      keys: `${project}/deploy_keys`,
      key: (id) => `${project}/deploy_keys/${id}`,
      hooks: `${project}/hooks`,
      hook: (id) => `${project}/hooks/${id}`,
      hookUpdate: 'PUT',
    };
    return setUpOnce(call, setup, paths, {
      key: { title: setup.title, key: setup.deployKey, can_push: false },
      hook: {
        url: setup.webhookUrl,
        token: setup.webhookSecret,
        push_events: true,
        merge_requests_events: true,
        enable_ssl_verification: true,
      },
    });
  },
};

export const REPOSITORY_DIALECTS = { github, gitlab, gitea };
