import { type ReportTarget, reportTargetOf } from '../reports/target.ts';
import type { Forge } from './forges.ts';
import { type Json, num, obj, str } from './payload.ts';

/** What a delivery asks of Wharf, whichever forge sent it. */
export type ForgeEvent =
  | {
      kind: 'push';
      gitBranch: string;
      commit: string;
      message: string;
      author: string;
      commitUrl: string | null;
      /** Who pushed: the forge's account name. */
      pusher: string;
      /** Every path the push changes, or null when the delivery does not list them all. */
      changedPaths: string[] | null;
      report: ReportTarget | null;
    }
  | { kind: 'branchDeleted'; gitBranch: string }
  | {
      kind: 'pullRequest';
      action: 'open' | 'update' | 'close';
      number: number;
      /** The pull request's branch (in its own repository, which may be a fork). */
      gitBranch: string;
      /** Where its head can be fetched from the base repository. */
      fetchRef: string;
      commit: string;
      url: string | null;
      author: string;
      report: ReportTarget | null;
    }
  | { kind: 'ignored'; reason: string };

const NO_COMMIT = /^0+$/;

/** `refs/heads/feature/x` → `feature/x`; null for a tag or anything else. */
const branchOfRef = (ref: string) => (ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : null);

function pushOf(body: Json, forge: Forge): ForgeEvent {
  const gitBranch = branchOfRef(str(body.ref));
  if (!gitBranch) return { kind: 'ignored', reason: 'Not a push to a branch (a tag, say)' };
  const after = str(body.after);
  if (body.deleted === true || NO_COMMIT.test(after)) return { kind: 'branchDeleted', gitBranch };
  // GitHub and Gitea name the head commit; GitLab lists the commits, the head among them.
  const commits = Array.isArray(body.commits) ? body.commits.map(obj) : [];
  const head = forge === 'gitlab' ? (commits.find((commit) => str(commit.id) === after) ?? {}) : obj(body.head_commit);
  const author = obj(head.author);
  const pusher = obj(body.pusher);
  return {
    kind: 'push',
    gitBranch,
    commit: after,
    message: str(head.message),
    author: str(author.name) && str(author.email) ? `${str(author.name)} <${str(author.email)}>` : str(author.name),
    commitUrl: str(head.url) || null,
    pusher: str(body.user_username) || str(pusher.login) || str(pusher.username) || str(pusher.name),
    changedPaths: changedPathsOf(body, commits),
    report: reportTargetOf(forge, body),
  };
}

/** GitHub lists at most this many commits of a push. */
const GITHUB_COMMITS_LISTED = 2048;

/**
 * The paths a push changes, from each commit's added, modified and removed files; null when that
 * is not the whole of it: a new branch (its commits are not all listed), a push listing no
 * commit, or more commits than the forge lists (GitLab lists 20, Gitea a few, and both say how
 * many there were).
 */
function changedPathsOf(body: Json, commits: Json[]): string[] | null {
  if (NO_COMMIT.test(str(body.before)) || body.created === true || commits.length === 0) return null;
  const total = num(body.total_commits_count) || num(body.total_commits);
  if (total > commits.length || commits.length >= GITHUB_COMMITS_LISTED) return null;
  const paths = new Set<string>();
  for (const commit of commits) {
    for (const list of [commit.added, commit.modified, commit.removed]) {
      if (!Array.isArray(list)) return null;
      for (const path of list) if (typeof path === 'string') paths.add(path);
    }
  }
  return [...paths];
}

const ACTIONS: Record<string, 'open' | 'update' | 'close'> = {
  opened: 'open',
  reopened: 'open',
  synchronize: 'update',
  synchronized: 'update',
  closed: 'close',
  // GitLab's merge requests.
  open: 'open',
  reopen: 'open',
  update: 'update',
  close: 'close',
  merge: 'close',
};

function pullRequestOf(body: Json, forge: Forge): ForgeEvent {
  if (forge === 'gitlab') {
    const attributes = obj(body.object_attributes);
    const action = ACTIONS[str(attributes.action)];
    if (!action)
      return { kind: 'ignored', reason: `Merge request ${str(attributes.action) || 'event'}: nothing to build` };
    const number = num(attributes.iid);
    return {
      kind: 'pullRequest',
      action,
      number,
      gitBranch: str(attributes.source_branch),
      fetchRef: `refs/merge-requests/${number}/head`,
      commit: str(obj(attributes.last_commit).id),
      url: str(attributes.url) || null,
      author: str(obj(body.user).username),
      report: reportTargetOf(forge, body),
    };
  }
  const action = ACTIONS[str(body.action)];
  if (!action) return { kind: 'ignored', reason: `Pull request ${str(body.action) || 'event'}: nothing to build` };
  const pull = obj(body.pull_request);
  const number = num(body.number) || num(pull.number);
  const head = obj(pull.head);
  return {
    kind: 'pullRequest',
    action,
    number,
    gitBranch: str(head.ref),
    fetchRef: `refs/pull/${number}/head`,
    commit: str(head.sha),
    url: str(pull.html_url) || null,
    author: str(obj(body.sender).login) || str(obj(pull.user).login),
    report: reportTargetOf(forge, body),
  };
}

/** Reads a delivery of `forge` whose event header says `event`, into what Wharf does with it. */
export function forgeEventOf(forge: Forge, event: string, body: unknown): ForgeEvent {
  const json = obj(body);
  const kind = event.toLowerCase();
  if (kind === 'push' || kind === 'push hook') return pushOf(json, forge);
  if (kind === 'pull_request' || kind === 'merge request hook') return pullRequestOf(json, forge);
  if (kind === 'delete' && str(json.ref_type) === 'branch') return { kind: 'branchDeleted', gitBranch: str(json.ref) };
  if (kind === 'ping') return { kind: 'ignored', reason: 'Pong: the webhook reaches Wharf' };
  return { kind: 'ignored', reason: `Wharf does nothing on ${event || 'this event'}` };
}

/** `[skip ci]` or `[wharf skip]` in a commit's message: its push builds nothing. */
export const asksToSkip = (message: string) => /\[(skip ci|ci skip|wharf skip)\]/i.test(message);

/** A glob as a regular expression: `*` within one level, `**` across them, everything else as it is. */
function globExpression(pattern: string): string {
  return pattern
    .split(/(\*\*|\*)/)
    .map((part) => (part === '**' ? '.*' : part === '*' ? '[^/]*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
}

/** Whether a git branch is among those the site builds besides its production branch (`feature/*`: one level, `**`: any). */
export function matchesBranches(gitBranch: string, patterns: string[]): boolean {
  return patterns.some((pattern) => new RegExp(`^${globExpression(pattern)}$`).test(gitBranch));
}

/**
 * Whether a push changing these paths builds: one of them matches a watch path (a pattern, or a
 * folder and all below it), or, without watch paths, lies under the base directory.
 */
export function changesWatchedPath(paths: string[], watchPaths: string[], baseDirectory: string): boolean {
  const patterns = watchPaths.length > 0 ? watchPaths : baseDirectory ? [baseDirectory] : [];
  // An empty commit is how people ask for a build again: it builds.
  if (patterns.length === 0 || paths.length === 0) return true;
  const expressions = patterns.map((pattern) => new RegExp(`^${globExpression(pattern.replace(/\/+$/, ''))}(?:/.*)?$`));
  return paths.some((path) => expressions.some((expression) => expression.test(path)));
}
