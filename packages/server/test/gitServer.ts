import { execFile, spawn } from 'node:child_process';
import { createHmac, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { testAuthority } from './certificates.ts';
import { expectStatus, type TestClient } from './client.ts';
import { ForgeApiStandIn } from './forgeApiStandIn.ts';
import { NODE_IMAGE } from './podman.ts';

const run = promisify(execFile);

/** The environment the test's own git runs with: nothing of this machine's git settings. */
const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Ada Lovelace',
  GIT_AUTHOR_EMAIL: 'ada@example.test',
  GIT_COMMITTER_NAME: 'Ada Lovelace',
  GIT_COMMITTER_EMAIL: 'ada@example.test',
};

const git = async (cwd: string, ...args: string[]) =>
  (await run('git', args, { cwd, env: GIT_ENV, maxBuffer: 16 * 1024 * 1024 })).stdout.trim();

/**
 * Hands one request to git's own smart-HTTP server, `git http-backend`, as a CGI program:
 * the request's method, path, query and body in, its headers and body out.
 */
function serveWithHttpBackend(
  root: string,
  request: import('node:http').IncomingMessage,
  response: import('node:http').ServerResponse,
) {
  const url = new URL(request.url ?? '/', 'https://git.test');
  const backend = spawn('git', ['http-backend'], {
    env: {
      ...GIT_ENV,
      GIT_PROJECT_ROOT: root,
      GIT_HTTP_EXPORT_ALL: '1',
      REQUEST_METHOD: request.method ?? 'GET',
      PATH_INFO: decodeURIComponent(url.pathname),
      QUERY_STRING: url.search.slice(1),
      CONTENT_TYPE: request.headers['content-type'] ?? '',
      ...(request.headers['git-protocol'] ? { GIT_PROTOCOL: String(request.headers['git-protocol']) } : {}),
      ...(request.headers['content-encoding']
        ? { HTTP_CONTENT_ENCODING: String(request.headers['content-encoding']) }
        : {}),
      REMOTE_ADDR: '127.0.0.1',
    },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  request.pipe(backend.stdin);
  let head = Buffer.alloc(0);
  let headersDone = false;
  backend.stdout.on('data', (chunk: Buffer) => {
    if (headersDone) return void response.write(chunk);
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf('\r\n\r\n');
    if (end === -1) return;
    headersDone = true;
    let status = 200;
    for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim();
      const value = line.slice(colon + 1).trim();
      if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
      else response.setHeader(name, value);
    }
    response.statusCode = status;
    response.write(head.subarray(end + 4));
  });
  backend.stdout.on('end', () => response.end());
}

/** A name the git server's certificate holds that never resolves (RFC 6761's `.invalid`). */
export const UNRESOLVABLE_GIT_HOST = 'git.wharf.invalid';

export interface GitServer {
  /** The clone URL of the repository, over HTTPS with a certificate `ca` signed. */
  url: string;
  /** The certificate authority a client must trust (PEM file path and text). */
  caFile: string;
  /** The bare repository's folder, for another transport to serve (ssh). */
  barePath: string;
  /** Commits the files of `files` (path → content, null removes) on `branch`, and pushes; answers the commit's id. */
  commit(branch: string, message: string, files: Record<string, string | Buffer | null>): Promise<string>;
  /** Points a ref of the served repository (a pull request's `refs/pull/1/head`) at a branch's head. */
  setRef(ref: string, branch: string): Promise<void>;
  /** The forges' status and comment APIs, served on the same host, as a forge serves both. */
  forge: ForgeApiStandIn;
  close(): Promise<void>;
}

/**
 * A bare repository served over HTTPS on loopback by git's own `http-backend`, the way a forge's
 * smart HTTP serves it, and a working copy the test commits and pushes from.
 */
export async function startGitServer(name = 'site'): Promise<GitServer> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'wharf-git-'));
  const root = path.join(dir, 'served');
  const bare = path.join(root, `${name}.git`);
  const work = path.join(dir, 'work');
  await run('git', ['init', '--quiet', '--bare', bare], { env: GIT_ENV });
  await run('git', ['init', '--quiet', work], { env: GIT_ENV });
  const authority = testAuthority();
  // Also a name no resolver answers: a clone pinned to the checked address reaches it by that name.
  const leaf = authority.issue(['127.0.0.1', UNRESOLVABLE_GIT_HOST]);
  const caFile = path.join(dir, 'ca.pem');
  await writeFile(caFile, authority.ca);
  const forge = new ForgeApiStandIn(() => `https://127.0.0.1:${port}`);
  const server = https.createServer({ cert: leaf.cert, key: leaf.key }, (request, response) =>
    forge.handles(request) ? void forge.serve(request, response) : serveWithHttpBackend(root, request, response),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}/${name}.git`,
    forge,
    caFile,
    barePath: bare,
    async commit(branch, message, files) {
      const branches = await git(work, 'branch', '--list', branch);
      const hasCommits = (await git(work, 'rev-parse', '--verify', '--quiet', 'HEAD').catch(() => '')) !== '';
      if (!hasCommits) await git(work, 'checkout', '--quiet', '-b', branch);
      else await git(work, 'checkout', '--quiet', ...(branches ? [branch] : ['-b', branch]));
      for (const [file, content] of Object.entries(files)) {
        const target = path.join(work, file);
        if (content === null) await rm(target, { force: true });
        else {
          await mkdir(path.dirname(target), { recursive: true });
          await writeFile(target, content);
        }
      }
      await git(work, 'add', '--all');
      await git(work, 'commit', '--quiet', '--allow-empty', '-m', message);
      await git(work, 'push', '--quiet', '--force', bare, `${branch}:refs/heads/${branch}`);
      return git(work, 'rev-parse', 'HEAD');
    },
    async setRef(ref, branch) {
      await git(work, 'push', '--quiet', '--force', bare, `${branch}:${ref}`);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Connects a site to the served repository as the builds' tests and bench do (`npm run build` into
 * `dist`, in the base images' Node.js image); answers the repository and its webhook secret.
 */
export async function connectToGitServer(client: TestClient, siteId: string, git: GitServer) {
  const site = `/api/v1/sites/${siteId}`;
  const body = {
    url: git.url,
    productionBranch: 'main',
    buildCommand: 'npm run build',
    publishDirectory: 'dist',
    image: NODE_IMAGE,
  };
  const repository = expectStatus(await client.put(`${site}/repository`, body), 200);
  const { secret } = expectStatus(await client.get(`${site}/repository/webhook-secret`), 200);
  return { repository, secret: secret as string };
}

export type ForgeKind = 'github' | 'gitlab' | 'gitea';

const hmac = (secret: string, body: string) => createHmac('sha256', secret).update(body).digest('hex');

/** The headers each forge sends with a delivery of `event`, signed (or, GitLab, vouched for) with the webhook's secret. */
export function deliveryHeaders(forge: ForgeKind, secret: string, event: string, body: string): Record<string, string> {
  const json = { 'content-type': 'application/json' };
  if (forge === 'gitlab')
    return { ...json, 'x-gitlab-event': event, 'x-gitlab-event-uuid': randomUUID(), 'x-gitlab-token': secret };
  if (forge === 'gitea')
    // Gitea also names the event as GitHub does; its own header tells it apart.
    return {
      ...json,
      'x-github-event': event,
      'x-gitea-event': event,
      'x-gitea-delivery': randomUUID(),
      'x-gitea-signature': hmac(secret, body),
    };
  return {
    ...json,
    'x-github-event': event,
    'x-github-delivery': randomUUID(),
    'x-hub-signature-256': `sha256=${hmac(secret, body)}`,
  };
}

/** The headers GitHub sends with a delivery of `event`: its body signed with the webhook's secret. */
export const githubDeliveryHeaders = (secret: string, event: string, body: string) =>
  deliveryHeaders('github', secret, event, body);

/** Delivers a webhook to `url` as `forge` does; answers the status and what Wharf said. */
export async function deliverAs(forge: ForgeKind, url: string, secret: string, event: string, payload: unknown) {
  const body = JSON.stringify(payload);
  const response = await fetch(url, { method: 'POST', headers: deliveryHeaders(forge, secret, event, body), body });
  return { status: response.status, answer: (await response.json()) as { builds: string[]; message: string } };
}

/** Delivers a webhook to `url` as GitHub does. */
export const deliverAsGitHub = (url: string, secret: string, event: string, payload: unknown) =>
  deliverAs('github', url, secret, event, payload);
