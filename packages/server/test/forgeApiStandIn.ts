import type { IncomingMessage, ServerResponse } from 'node:http';

/** One call the stand-in received: what Wharf asked of the forge. */
export interface ForgeApiCall {
  forge: 'github' | 'gitlab' | 'gitea';
  method: string;
  path: string;
  authorization: string;
  body: Record<string, any>;
}

/** The API paths of each forge, under the one host the repository is served from. */
const LAYOUTS = {
  github: { base: '/api/v3/repos/acme/site', comments: /^issues\/(\d+)\/comments$/, edit: /^issues\/comments\/(\d+)$/ },
  gitea: { base: '/api/v1/repos/acme/site', comments: /^issues\/(\d+)\/comments$/, edit: /^issues\/comments\/(\d+)$/ },
  gitlab: {
    base: '/api/v4/projects/42',
    comments: /^merge_requests\/(\d+)\/notes$/,
    edit: /^merge_requests\/\d+\/notes\/(\d+)$/,
  },
} as const;

/**
 * A loopback stand-in of the three forges' commit status and pull request comment APIs, as their
 * documentation describes them (GitHub Enterprise's `/api/v3`, GitLab's `/api/v4`, Gitea's and
 * Forgejo's `/api/v1`): it checks the bearer token, records each call, keeps comments by id.
 */
export class ForgeApiStandIn {
  readonly calls: ForgeApiCall[] = [];
  /** The comments' text by id, as the forge keeps them. */
  readonly comments = new Map<string, string>();
  /** The token every call must bear. */
  token = 'forge-token';
  private nextId = 1000;
  /** While set, a new comment is answered only once it resolves (a slow forge, to let two writers meet). */
  private commentsHeld: Promise<void> | null = null;

  /** Holds every new comment's answer until the returned function is called. */
  holdNewComments(): () => void {
    let release = () => {};
    this.commentsHeld = new Promise((resolve) => {
      release = resolve;
    });
    return () => {
      this.commentsHeld = null;
      release();
    };
  }

  constructor(private readonly origin: () => string) {}

  /** What each forge's deliveries say of the repository, naming this stand-in's API. */
  payloadOf(forge: ForgeApiCall['forge']) {
    const origin = this.origin();
    if (forge === 'github')
      return {
        repository: { full_name: 'acme/site', html_url: `${origin}/acme/site`, url: `${origin}${LAYOUTS.github.base}` },
      };
    if (forge === 'gitea') return { repository: { full_name: 'acme/site', html_url: `${origin}/acme/site` } };
    return { project: { id: 42, path_with_namespace: 'acme/site', web_url: `${origin}/acme/site` } };
  }

  /** The calls made to the forge of `forge`, without their token. */
  callsOf(forge: ForgeApiCall['forge']) {
    return this.calls.filter((call) => call.forge === forge);
  }

  handles(request: IncomingMessage) {
    return (request.url ?? '').startsWith('/api/');
  }

  async serve(request: IncomingMessage, response: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const path = new URL(request.url ?? '/', 'https://forge.test').pathname;
    const entry = Object.entries(LAYOUTS).find(([, layout]) => path.startsWith(`${layout.base}/`));
    const answer = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (!entry) return answer(404, { message: 'Not Found' });
    const [forge, layout] = entry as [ForgeApiCall['forge'], (typeof LAYOUTS)[keyof typeof LAYOUTS]];
    const authorization = request.headers.authorization ?? '';
    this.calls.push({ forge, method: request.method ?? '', path, authorization, body: text ? JSON.parse(text) : {} });
    if (authorization !== `Bearer ${this.token}`) return answer(401, { message: 'Bad credentials' });
    const rest = path.slice(layout.base.length + 1);
    const body = text ? (JSON.parse(text) as { body?: string }) : {};
    if (request.method === 'POST' && rest.startsWith('statuses/')) return answer(201, { id: this.nextId++ });
    if (request.method === 'POST' && layout.comments.test(rest)) {
      await this.commentsHeld;
      const id = String(this.nextId++);
      this.comments.set(id, body.body ?? '');
      return answer(201, { id: Number(id), body: body.body });
    }
    const edited = layout.edit.exec(rest);
    if ((request.method === 'PATCH' || request.method === 'PUT') && edited) {
      if (!this.comments.has(edited[1]!)) return answer(404, { message: 'Not Found' });
      this.comments.set(edited[1]!, body.body ?? '');
      return answer(200, { id: Number(edited[1]), body: body.body });
    }
    return answer(404, { message: 'Not Found' });
  }
}
