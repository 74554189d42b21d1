import { commentsPageUrl, editCommentCall, newCommentCall } from '@wharf/contract/forge';
import { forgeHeaders, forgeRequest, repositoryApiOf } from './commitStatus.ts';
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
  create: (body: string) => { url: string; init: RequestInit };
  update: (id: number, body: string) => { url: string; init: RequestInit };
}

/** The comments of the pull request, in the forge's API (GitHub, Gitea and Forgejo: issue comments; GitLab: notes). */
function commentsApi(target: StatusTarget, number: number): CommentsApi {
  const repository = repositoryApiOf(target);
  return {
    headers: forgeHeaders(target),
    list: (page) => commentsPageUrl(target.api, repository, number, page),
    create: (body) => forgeRequest(target, newCommentCall(target.api, repository, number, body)),
    update: (id, body) => forgeRequest(target, editCommentCall(target.api, repository, number, String(id), body)),
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
  const body = `${COMMENT_MARKER}\n${text}`;
  try {
    const ours = await findOurComment(api);
    const { url, init } = ours ? api.update(ours.id, body) : api.create(body);
    await call(url, init);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}
