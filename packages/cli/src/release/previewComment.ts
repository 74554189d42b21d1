import type { StatusTarget } from './pullRequest.ts';

/**
 * Marks Wharf's comment among the pull request's others, so that each deploy edits it instead of
 * adding one more: the hidden HTML comment is invisible in the forge's rendering.
 */
export const COMMENT_MARKER = '<!-- wharf-preview -->';

const TIMEOUT_MS = 15_000;
/** A pull request with more comments than this before ours gets a second one: enough in practice. */
const MAX_PAGES = 10;

interface ForgeComment {
  id: number;
  body?: string;
}

interface CommentsApi {
  headers: Record<string, string>;
  list: (page: number) => string;
  create: string;
  update: (id: number) => { url: string; method: string };
}

/** The comments API of the forge: GitHub, Gitea and Forgejo share issue comments; GitLab has notes. */
function commentsApi(target: StatusTarget, number: number): CommentsApi {
  const base = target.baseUrl.replace(/\/+$/, '');
  if (target.api === 'gitlab') {
    const notes = `${base}/projects/${encodeURIComponent(target.repository)}/merge_requests/${number}/notes`;
    return {
      headers: { 'private-token': target.token, 'content-type': 'application/json' },
      list: (page: number) => `${notes}?per_page=100&page=${page}&sort=asc`,
      create: notes,
      update: (id: number) => ({ url: `${notes}/${id}`, method: 'PUT' }),
    };
  }
  const repo = `${base}/repos/${target.repository}`;
  return {
    headers: {
      authorization: `Bearer ${target.token}`,
      accept: 'application/vnd.github+json',
      'content-type': 'application/json',
    },
    // Gitea and Forgejo page with `limit`, GitHub with `per_page`: each ignores the other's.
    list: (page: number) => `${repo}/issues/${number}/comments?per_page=100&limit=50&page=${page}`,
    create: `${repo}/issues/${number}/comments`,
    update: (id: number) => ({ url: `${repo}/issues/comments/${id}`, method: 'PATCH' }),
  };
}

async function call(url: string, init: RequestInit) {
  const answer = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  if (!answer.ok) throw new Error(`${answer.status} ${(await answer.text()).slice(0, 200)}`);
  return answer;
}

async function findOurComment(api: CommentsApi) {
  for (let page = 1; page <= MAX_PAGES; page += 1) {
    const comments = (await (await call(api.list(page), { headers: api.headers })).json()) as ForgeComment[];
    const ours = comments.find((comment) => comment.body?.includes(COMMENT_MARKER));
    if (ours) return ours;
    if (comments.length === 0) return null;
  }
  return null;
}

/**
 * Writes the preview's comment on the pull request: the one Wharf wrote before, edited in place, or
 * a new one. Like the commit status, a refusal is reported, never fatal. Answers null or the problem.
 */
export async function upsertPreviewComment(target: StatusTarget, number: number, text: string) {
  const api = commentsApi(target, number);
  const body = JSON.stringify({ body: `${COMMENT_MARKER}\n${text}` });
  try {
    const ours = await findOurComment(api);
    if (ours) {
      const { url, method } = api.update(ours.id);
      await call(url, { method, headers: api.headers, body });
    } else {
      await call(api.create, { method: 'POST', headers: api.headers, body });
    }
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}
