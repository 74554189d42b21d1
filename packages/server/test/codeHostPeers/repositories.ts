import { giteaList, linkHeader, pageOf, queryNumber } from './http.ts';
import type { Answer, ApiCall, PeerRepository } from './types.ts';

/**
 * The repository endpoints of the three code hosts, as their documentation shapes them: listing the
 * account's repositories page by page, reading one, and adding a webhook and a deploy key (which
 * the peer records in `setUps`). Scopes and roles are enforced as each host does: GitHub hides
 * what a token may not touch (404), GitLab and Gitea refuse with 403.
 */
export type RepositoryRoute = [pattern: RegExp, handle: (call: ApiCall, name: string, id: string) => Answer];

const PUSHED = '2026-11-01T10:00:00Z';

const visible = (call: ApiCall, readPrivate: boolean) =>
  (call.user.repositories ?? []).filter((repository) => readPrivate || !repository.private);

const find = (call: ApiCall, name: string) =>
  (call.user.repositories ?? []).find((repository) => repository.fullName === decodeURIComponent(name));

function githubLike(call: ApiCall, repository: PeerRepository, apiPrefix: string) {
  const [owner, name] = repository.fullName.split('/');
  return {
    id: 4000 + (call.user.repositories ?? []).indexOf(repository),
    name,
    full_name: repository.fullName,
    owner: { login: owner },
    private: repository.private ?? false,
    html_url: `${call.base}/${repository.fullName}`,
    url: `${call.base}${apiPrefix}/repos/${repository.fullName}`,
    clone_url: repository.httpsUrl ?? `${call.base}/${repository.fullName}.git`,
    ssh_url: `git@127.0.0.1:${repository.fullName}.git`,
    default_branch: repository.defaultBranch ?? 'main',
    pushed_at: repository.pushedAt ?? PUSHED,
    updated_at: repository.pushedAt ?? PUSHED,
    permissions: { admin: repository.admin ?? false, push: true, pull: true },
  };
}

const notFound: Answer = { status: 404, body: { message: 'Not Found', status: '404' } };

const kindOf = (call: ApiCall) => (call.path.endsWith('/hooks') ? 'hook' : 'key');

function record(call: ApiCall, repository: PeerRepository): Answer {
  const setUp = {
    id: call.setUps.length + 1,
    repository: repository.fullName,
    kind: kindOf(call),
    body: call.body as Record<string, unknown>,
  } as const;
  call.setUps.push(setUp);
  return { status: 201, body: { id: setUp.id, ...setUp.body } };
}

/** The hooks or keys of a repository, each as its body with its id (a key's `key`, a hook's `config` or GitLab's `url`). */
function listed(call: ApiCall, repository: PeerRepository): Answer {
  const kind = kindOf(call);
  const items = call.setUps.filter(
    (setUp) => setUp.repository === repository.fullName && setUp.kind === kind && !setUp.removed,
  );
  return { status: 200, body: items.map((setUp) => ({ id: setUp.id, ...setUp.body })) };
}

/** A hook changed in place (GitHub and Gitea PATCH it, GitLab PUTs it); the peer keeps the new body. */
function updated(call: ApiCall, repository: PeerRepository, id: string): Answer {
  const hook = call.setUps.find(
    (setUp) => setUp.id === Number(id) && setUp.repository === repository.fullName && setUp.kind === 'hook',
  );
  if (!hook) return notFound;
  hook.body = { ...hook.body, ...(call.body as Record<string, unknown>) };
  hook.updates = (hook.updates ?? 0) + 1;
  return { status: 200, body: { id: hook.id, ...hook.body } };
}

/** A key or hook removed (DELETE with its id): the peer keeps it, marked, for tests to see. */
function removed(call: ApiCall, repository: PeerRepository, id: string): Answer {
  const found = call.setUps.find(
    (setUp) => setUp.id === Number(id) && setUp.repository === repository.fullName && !setUp.removed,
  );
  if (!found) return notFound;
  found.removed = true;
  return { status: 204, body: null };
}

/** Lists (GET), adds (POST), changes (PATCH, PUT with an id) or removes (DELETE) a repository's hooks or keys. */
function administer(call: ApiCall, repository: PeerRepository, id: string): Answer {
  if (id && call.method === 'DELETE') return removed(call, repository, id);
  if (id) return updated(call, repository, id);
  return call.method === 'GET' ? listed(call, repository) : record(call, repository);
}

/** GitHub: private repositories and every write need `repo`; a non-admin's hooks and keys are not found. */
export const githubRepositoryRoutes: RepositoryRoute[] = [
  [
    /^GET \/user\/repos$/,
    (call) => {
      const page = queryNumber(call.query, 'page', 1);
      const all = visible(call, call.scopes.includes('repo')).map((repository) =>
        githubLike(call, repository, '/api/v3'),
      );
      const { items, pages } = pageOf(all, page, queryNumber(call.query, 'per_page', 30, 100));
      return {
        status: 200,
        body: items,
        headers: linkHeader(`${call.base}/api/v3/user/repos`, call.query, page, pages),
      };
    },
  ],
  [
    /^GET \/repos\/([^/]+\/[^/]+)$/,
    (call, name) => {
      const repository = find(call, name);
      if (!repository || (repository.private && !call.scopes.includes('repo'))) return notFound;
      return { status: 200, body: githubLike(call, repository, '/api/v3') };
    },
  ],
  [
    /^(?:GET|POST|PATCH|DELETE) \/repos\/([^/]+\/[^/]+)\/(?:hooks|keys)(?:\/(\d+))?$/,
    (call, name, id) => {
      const repository = find(call, name);
      if (!repository?.admin || !call.scopes.includes('repo')) return notFound;
      return administer(call, repository, id);
    },
  ],
];

const giteaForbidden = (message: string): Answer => ({
  status: 403,
  body: { message, url: 'https://gitea.test/api/swagger' },
});

/** Gitea/Forgejo: reading needs `read:repository` (or write), writing `write:repository` and the admin right. */
export const giteaRepositoryRoutes: RepositoryRoute[] = [
  [
    /^GET \/user\/repos$/,
    (call) => {
      if (!call.scopes.some((scope) => scope.endsWith(':repository')))
        return giteaForbidden('token does not have at least one of required scope(s): [read:repository]');
      const all = visible(call, true).map((repository) => githubLike(call, repository, '/api/v1'));
      return giteaList(call, all, '/user/repos');
    },
  ],
  [
    /^GET \/repos\/([^/]+\/[^/]+)$/,
    (call, name) => {
      const repository = find(call, name);
      return repository ? { status: 200, body: githubLike(call, repository, '/api/v1') } : notFound;
    },
  ],
  [
    /^(?:GET|POST|PATCH|DELETE) \/repos\/([^/]+\/[^/]+)\/(?:hooks|keys)(?:\/(\d+))?$/,
    (call, name, id) => {
      const repository = find(call, name);
      if (!repository) return notFound;
      if (!call.scopes.includes('write:repository'))
        return giteaForbidden('token does not have at least one of required scope(s): [write:repository]');
      if (!repository.admin) return giteaForbidden('Must be an administrator of the repository');
      return administer(call, repository, id);
    },
  ],
];

function gitlabProject(call: ApiCall, repository: PeerRepository) {
  const id = 700 + (call.user.repositories ?? []).indexOf(repository);
  return {
    id,
    path_with_namespace: repository.fullName,
    name: repository.fullName.split('/').at(-1),
    web_url: `${call.base}/${repository.fullName}`,
    http_url_to_repo: repository.httpsUrl ?? `${call.base}/${repository.fullName}.git`,
    ssh_url_to_repo: `git@127.0.0.1:${repository.fullName}.git`,
    default_branch: repository.defaultBranch ?? 'main',
    visibility: repository.private ? 'private' : 'public',
    last_activity_at: repository.pushedAt ?? PUSHED,
    permissions: {
      project_access: { access_level: repository.admin ? 40 : 30, notification_level: 3 },
      group_access: null,
    },
  };
}

const gitlabScope = (call: ApiCall, ...covering: string[]): Answer | null =>
  call.scopes.some((scope) => covering.includes(scope))
    ? null
    : { status: 403, body: { error: 'insufficient_scope', scope: covering.join(' ') } };

/** GitLab: projects by their id or their escaped whole path; reading needs `read_api`, writing `api` and Maintainer. */
export const gitlabRepositoryRoutes: RepositoryRoute[] = [
  [
    /^GET \/projects$/,
    (call) => {
      const refused = gitlabScope(call, 'read_api', 'api');
      if (refused) return refused;
      const page = queryNumber(call.query, 'page', 1);
      const perPage = queryNumber(call.query, 'per_page', 20, 100);
      const { items, pages } = pageOf(
        visible(call, true).map((repository) => gitlabProject(call, repository)),
        page,
        perPage,
      );
      return { status: 200, body: items, headers: { 'x-next-page': page < pages ? String(page + 1) : '' } };
    },
  ],
  [
    /^GET \/projects\/([^/]+)$/,
    (call, name) => {
      const repository = find(call, name);
      return repository
        ? { status: 200, body: gitlabProject(call, repository) }
        : { status: 404, body: { message: '404 Project Not Found' } };
    },
  ],
  [
    /^(?:GET|POST|PUT|DELETE) \/projects\/([^/]+)\/(?:hooks|deploy_keys)(?:\/(\d+))?$/,
    (call, name, id) => {
      const repository = find(call, name);
      if (!repository) return { status: 404, body: { message: '404 Project Not Found' } };
      const refused = gitlabScope(call, 'api');
      if (refused) return refused;
      if (!repository.admin) return { status: 403, body: { message: '403 Forbidden' } };
      return administer(call, repository, id);
    },
  ],
];
