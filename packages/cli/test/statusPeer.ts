import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PostedStatus {
  path: string;
  /** The token the CLI authenticated with (Bearer on GitHub and Gitea, PRIVATE-TOKEN on GitLab). */
  token: string | undefined;
  body: Record<string, unknown>;
}

/** A comment on a pull request (GitHub, Gitea) or a note on a merge request (GitLab). */
export interface ForgeComment {
  id: number;
  /** `acme/shop#42` or `1234!7`: which pull or merge request it is on. */
  on: string;
  body: string;
  edits: number;
}

type Answer = [status: number, body: unknown];
interface Call {
  match: RegExpExecArray;
  body: Record<string, unknown>;
  query: URLSearchParams;
  token: string;
}
type Handler = (call: Call) => Answer;

/**
 * A loopback forge that speaks, as documented, the commit statuses API of GitHub (and of Gitea and
 * Forgejo, the same shape) and of GitLab, and their pull-request comments (GitHub's issue comments,
 * GitLab's merge request notes), paged. It answers 401 for a token it does not know.
 */
export async function startStatusPeer(token: string, { commentsPerPage = 100 } = {}) {
  const statuses: PostedStatus[] = [];
  const comments: ForgeComment[] = [];

  const listComments = (on: string, query: URLSearchParams): Answer => {
    const page = Number(query.get('page') ?? 1);
    const mine = comments.filter((comment) => comment.on === on);
    const slice = mine.slice((page - 1) * commentsPerPage, page * commentsPerPage);
    return [200, slice.map(({ id, body }) => ({ id, body }))];
  };
  const addComment = (on: string, body: Record<string, unknown>): Answer => {
    const comment = { id: 1000 + comments.length, on, body: String(body.body), edits: 0 };
    comments.push(comment);
    return [201, { id: comment.id, body: comment.body }];
  };
  const editComment = (id: string, body: Record<string, unknown>): Answer => {
    const comment = comments.find((candidate) => candidate.id === Number(id));
    if (!comment) return [404, { message: 'Not Found' }];
    comment.body = String(body.body);
    comment.edits += 1;
    return [200, { id: comment.id, body: comment.body }];
  };
  const addStatus = (path: string, given: string, body: Record<string, unknown>): Answer => {
    statuses.push({ path, token: given, body });
    return [201, { id: statuses.length, ...body }];
  };

  /** `acme/shop#42` for a pull request, `1234!7` for a merge request. */
  const pullOf = (call: Call, mark: string) => `${call.match[1]}${mark}${call.match[2]}`;

  const routes: [method: string, path: RegExp, handler: Handler][] = [
    ['POST', /^\/repos\/[^/]+\/[^/]+\/statuses\/[0-9a-f]+$/, (c) => addStatus(c.match.input, c.token, c.body)],
    ['POST', /^\/projects\/[^/]+\/statuses\/[0-9a-f]+$/, (c) => addStatus(c.match.input, c.token, c.body)],
    ['GET', /^\/repos\/([^/]+\/[^/]+)\/issues\/(\d+)\/comments$/, (c) => listComments(pullOf(c, '#'), c.query)],
    ['POST', /^\/repos\/([^/]+\/[^/]+)\/issues\/(\d+)\/comments$/, (c) => addComment(pullOf(c, '#'), c.body)],
    ['PATCH', /^\/repos\/[^/]+\/[^/]+\/issues\/comments\/(\d+)$/, (c) => editComment(c.match[1]!, c.body)],
    ['GET', /^\/projects\/([^/]+)\/merge_requests\/(\d+)\/notes$/, (c) => listComments(pullOf(c, '!'), c.query)],
    ['POST', /^\/projects\/([^/]+)\/merge_requests\/(\d+)\/notes$/, (c) => addComment(pullOf(c, '!'), c.body)],
    ['PUT', /^\/projects\/[^/]+\/merge_requests\/\d+\/notes\/(\d+)$/, (c) => editComment(c.match[1]!, c.body)],
  ];

  const answer = (req: http.IncomingMessage, text: string): Answer => {
    const url = new URL(req.url ?? '/', 'http://forge');
    const route = routes.find(([method, path]) => method === req.method && path.test(url.pathname));
    if (!route) return [404, { message: 'Not Found' }];
    const gitlab = url.pathname.startsWith('/projects/');
    const given = gitlab ? req.headers['private-token'] : req.headers.authorization?.replace(/^(Bearer|token) /, '');
    if (given !== token) return [401, { message: 'Bad credentials' }];
    const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    return route[2]({ match: route[1].exec(url.pathname)!, body, query: url.searchParams, token: given as string });
  };

  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk));
    req.on('end', () => {
      const [status, body] = answer(req, text);
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    statuses,
    comments,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type StatusPeer = Awaited<ReturnType<typeof startStatusPeer>>;
