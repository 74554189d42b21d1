import { type ChildProcess, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { buildServer } from '../../scripts/buildServer.mjs';
import type { BenchCertificate } from './certificate.ts';
import { freePort, request, waitForHttp } from './http.ts';

export interface WharfServer {
  child: ChildProcess;
  port: number;
  dataDir: string;
  adminPassword: string;
  /** The TLS listener's port when it runs with HTTPS (then its plain HTTP redirects to it). */
  httpsPort: number | null;
}

/** The password of the first admin, from the warning a fresh installation prints once. */
function watchForPassword(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let pending = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        const password = line.startsWith('{') ? (JSON.parse(line) as { password?: string }).password : undefined;
        if (password) resolve(password);
        else process.stdout.write(`wharf: ${line}\n`);
      }
    });
    child.once('exit', (code) => reject(new Error(`Wharf exited with ${code} before it was ready`)));
  });
}

/** Passes Wharf's output through, for a Wharf that prints no password: its data directory is not new. */
function passOutput(child: ChildProcess) {
  child.stdout!.on('data', (chunk: Buffer) => process.stdout.write(`wharf: ${chunk.toString('utf8')}`));
}

/** The environment of a Wharf serving HTTPS with the bench's certificate, for the console host and the sites host. */
function httpsEnvironment(port: number, certificate: BenchCertificate) {
  return {
    WHARF_HTTPS_PORT: String(port),
    WHARF_TLS_CERT: certificate.certFile,
    WHARF_TLS_KEY: certificate.keyFile,
  };
}

/**
 * A real Wharf as a child process, on a loopback port, with a fresh SQLite database in `dataDir`;
 * or, given `again`, the Wharf that ran before on the same database (with its sites and password),
 * started anew. With `https`, it also listens over TLS with that certificate.
 */
export async function startWharf(
  dataDir: string,
  workers: string | undefined,
  nodeArgs: string[] = [],
  { https, again }: { https?: BenchCertificate; again?: WharfServer } = {},
): Promise<WharfServer> {
  const port = await freePort();
  const httpsPort = https ? await freePort() : null;
  // The server as `npm start` runs it: bundled, on plain Node.
  const child = spawn(process.execPath, [...nodeArgs, await buildServer()], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      WHARF_URL: `http://127.0.0.1:${port}`,
      WHARF_SITES_URL: `http://localhost:${port}`,
      WHARF_DATA_DIR: dataDir,
      WHARF_USERS: '',
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      ...(workers === undefined ? {} : { WHARF_WORKERS: workers }),
      ...(https && httpsPort ? httpsEnvironment(httpsPort, https) : {}),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let adminPassword: string;
  if (again) {
    passOutput(child);
    adminPassword = again.adminPassword;
  } else adminPassword = await watchForPassword(child);
  // With HTTPS, plain HTTP answers this with a redirect: enough to know the process serves.
  await waitForHttp(port, `127.0.0.1:${port}`, '/api/v1/system/info', child);
  return { child, port, dataDir, adminPassword, httpsPort };
}

/** Talks to the API as the first admin, with the session cookie of its sign-in. */
export class AdminClient {
  private cookie = '';

  constructor(private readonly base: string) {}

  /** The Cookie header of the session, for a browser that should be signed in as the same user. */
  get sessionCookie() {
    return this.cookie;
  }

  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const init: RequestInit & { headers: Record<string, string> } = { method, headers: { cookie: this.cookie } };
    if (body instanceof FormData) init.body = body;
    else if (body !== undefined) {
      init.headers['content-type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    const answer = await fetch(this.base + path, init);
    const cookies = answer.headers.getSetCookie().map((c) => c.split(';')[0]);
    if (cookies.length > 0) this.cookie = cookies.join('; ');
    const text = await answer.text();
    if (!answer.ok) throw new Error(`${method} ${path} answered ${answer.status}: ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }
}

export interface BenchSite {
  siteId: string;
  orgId: string;
  teamId: string;
  releaseId: string;
  /** Host of the main branch, e.g. `bench.localhost:8080`. */
  host: string;
  /** Host of a branch serving the same release behind a password. */
  privateHost: string;
  /** Authorization header that opens the private branch. */
  credential: string;
}

export const PRIVATE_PASSWORD = 'bench-password';

/** Signs in, creates an organization, team and site, and uploads the release to `main` and `private`. */
export async function createBenchSite(wharf: WharfServer, archive: string): Promise<BenchSite> {
  const api = new AdminClient(`http://127.0.0.1:${wharf.port}`);
  await api.call('POST', '/auth/in-memory', { user: 'admin', password: wharf.adminPassword });
  const org = await api.call<{ _id: string }>('POST', '/api/v1/orgs', { name: 'Bench' });
  const team = await api.call<{ _id: string }>('POST', `/api/v1/orgs/${org._id}/teams`, { name: 'Web' });
  const site = await api.call<{ _id: string; name: string; color: string; mainBranch: string }>(
    'POST',
    `/api/v1/teams/${team._id}/sites`,
    { name: 'bench' },
  );
  // nginx serves /index.html as it is: so does the site measured against it (pretty URLs would redirect it to /).
  await api.call('PUT', `/api/v1/sites/${site._id}`, {
    name: site.name,
    color: site.color,
    mainBranch: site.mainBranch,
    spa: false,
    prettyUrls: false,
    domains: [],
  });
  const form = new FormData();
  form.append('name', 'bench release');
  form.append('branches', 'main');
  form.append('branches', 'private');
  form.append('file', new Blob([await readFile(archive)], { type: 'application/gzip' }), 'site.tar.gz');
  const release = await api.call<{ _id: string }>('POST', `/api/v1/sites/${site._id}/releases`, form);
  const branches = await api.call<{ _id: string; name: string }[]>('GET', `/api/v1/sites/${site._id}/branches`);
  const privateBranch = branches.find((branch) => branch.name === 'private')!;
  await api.call('PUT', `/api/v1/sites/${site._id}/branches/${privateBranch._id}/password`, {
    password: PRIVATE_PASSWORD,
  });
  const host = `${site.name}.localhost:${wharf.port}`;
  const credential = `Basic ${Buffer.from(`user:${PRIVATE_PASSWORD}`).toString('base64')}`;
  const privateHost = `private.${host}`;
  if ((await request(wharf.port, privateHost, '/')).status !== 401)
    throw new Error('The private branch is not protected');
  return { siteId: site._id, orgId: org._id, teamId: team._id, releaseId: release._id, host, privateHost, credential };
}
