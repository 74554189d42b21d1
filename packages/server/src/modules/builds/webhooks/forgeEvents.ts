import type { Forge } from './forges.ts';

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
    }
  | { kind: 'ignored'; reason: string };

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (value && typeof value === 'object' ? (value as Json) : {});
const str = (value: unknown): string => (typeof value === 'string' ? value : '');
const num = (value: unknown): number => (typeof value === 'number' && Number.isInteger(value) ? value : 0);
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
  };
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

/** Whether a git branch is among those the site builds besides its production branch (`feature/*`: one level, `**`: any). */
export function matchesBranches(gitBranch: string, patterns: string[]): boolean {
  return patterns.some((pattern) => {
    const expression = pattern
      .split(/(\*\*|\*)/)
      .map((part) => (part === '**' ? '.*' : part === '*' ? '[^/]*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
      .join('');
    return new RegExp(`^${expression}$`).test(gitBranch);
  });
}
