import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PostedStatus {
  path: string;
  /** The token the CLI authenticated with (Bearer on GitHub and Gitea, PRIVATE-TOKEN on GitLab). */
  token: string | undefined;
  body: Record<string, unknown>;
}

/**
 * A loopback forge that speaks the commit statuses API of GitHub (and Gitea and Forgejo, the same
 * shape) and of GitLab, as documented: it records each status and answers it as created, or 401
 * for a token it does not know.
 */
export async function startStatusPeer(token: string) {
  const statuses: PostedStatus[] = [];
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk));
    req.on('end', () => {
      const github = /^\/repos\/[^/]+\/[^/]+\/statuses\/[0-9a-f]+$/.test(req.url ?? '');
      const gitlab = /^\/projects\/[^/]+\/statuses\/[0-9a-f]+$/.test(req.url ?? '');
      if (req.method !== 'POST' || (!github && !gitlab)) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: 'Not Found' }));
        return;
      }
      const given = github ? req.headers.authorization?.replace(/^(Bearer|token) /, '') : req.headers['private-token'];
      if (given !== token) {
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: 'Bad credentials' }));
        return;
      }
      const body = JSON.parse(text) as Record<string, unknown>;
      statuses.push({ path: req.url!, token: given as string, body });
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: statuses.length, ...body }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    statuses,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type StatusPeer = Awaited<ReturnType<typeof startStatusPeer>>;
