import { commentsPageUrl, editCommentCall, newCommentCall } from '@wharf/contract/forge';
import { type Exchange, exchange } from '../api/httpExchange.ts';
import { accepted, forgeRequest, refusal, repositoryApiOf } from './commitStatus.ts';
import type { StatusTarget } from './pullRequest.ts';

/**
 * Marks Wharf's comment among the pull request's others, so that each deploy edits it instead of
 * adding one more: the hidden HTML comment is invisible in the forge's rendering.
 */
export const COMMENT_MARKER = '<!-- wharf-preview -->';

/** A pull request with more comments than this before ours gets a second one: enough in practice. */
const MAX_PAGES = 10;

interface ForgeComment {
  id: number;
  body?: string;
}

interface CommentsApi {
  list: (page: number) => Exchange;
  create: (body: string) => Exchange;
  update: (id: number, body: string) => Exchange;
}

/** The comments of the pull request, in the forge's API (GitHub, Gitea and Forgejo: issue comments; GitLab: notes). */
function commentsApi(target: StatusTarget, number: number): CommentsApi {
  const repository = repositoryApiOf(target);
  return {
    list: (page) => forgeRequest(target, { method: 'GET', url: commentsPageUrl(target.api, repository, number, page) }),
    create: (body) => forgeRequest(target, newCommentCall(target.api, repository, number, body)),
    update: (id, body) => forgeRequest(target, editCommentCall(target.api, repository, number, String(id), body)),
  };
}

/** The forge's answer; a refusal throws, with what the forge said. */
async function call(request: Exchange) {
  const answer = await exchange(request);
  if (!accepted(answer)) throw new Error(refusal(answer));
  return answer;
}

async function findOurComment(api: CommentsApi) {
  for (let page = 1; page <= MAX_PAGES; page += 1) {
    const comments = JSON.parse((await call(api.list(page))).text) as ForgeComment[];
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
    await call(ours ? api.update(ours.id, body) : api.create(body));
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}
