import { type ChildProcess, spawn } from 'node:child_process';
import { access, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './harness.ts';

export const NGINX = '/usr/sbin/nginx';

/**
 * nginx as one configures it for a static site, with the choices that make it comparable: strong
 * ETags, the `.gz` file beside each file served as is (`gzip_static`, with `Vary`), If-Modified-Since
 * as RFC 9110 reads it (`before`, not nginx's default `exact`), relative redirects, the site's
 * `404.html`, and dotfiles other than `.well-known/` and the release's config files refused.
 * One process (`master_process off`), so that it reads the files as the test's own user.
 */
function configuration(dir: string, root: string, port: number) {
  return `daemon off;
master_process off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 64; }
http {
  types { text/html html; text/javascript js; text/plain txt; image/png png; }
  default_type application/octet-stream;
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  sendfile on;
  etag on;
  gzip_static on;
  gzip_vary on;
  if_modified_since before;
  absolute_redirect off;
  server {
    listen 127.0.0.1:${port};
    root ${root};
    error_page 404 /404.html;
    location ~ (^|/)\\.(?!well-known/) { return 404; }
    location ~ ^/(_redirects|_headers)$ { return 404; }
  }
}
`;
}

export interface Nginx {
  port: number;
  close(): Promise<void>;
}

const answers = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => resolve(true)).once('error', () => resolve(false));
    socket.unref();
  });

async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  // Fast shutdown: a graceful one (SIGQUIT) waits for connections a test's clients keep open
  // (a keep-alive pool, a WebSocket's proxied upstream) and took 57 s in the load balancer's test.
  child.kill('SIGTERM');
  await exited;
}

/** Debian's nginx serving `root` on a free loopback port; fails, saying so, when nginx is not installed. */
export async function startNginx(root: string): Promise<Nginx> {
  await access(NGINX).catch(() => {
    throw new Error(
      `nginx is missing (${NGINX}): this test compares the edge with it. Install it: apt-get install nginx`,
    );
  });
  const dir = await mkdtemp(path.join(os.tmpdir(), 'wharf-nginx-'));
  const port = await freePort();
  return runNginx(dir, configuration(dir, root, port), port);
}

/**
 * Debian's nginx with `configuration` (written into `dir`, its prefix, which `close` removes),
 * in the foreground of this process, once it answers on `port`; its pid file and error log in `dir`.
 */
export async function runNginx(dir: string, configuration: string, port: number, global = ''): Promise<Nginx> {
  const conf = path.join(dir, 'nginx.conf');
  await writeFile(conf, configuration);
  const args = ['-p', dir, '-c', conf, '-e', path.join(dir, 'error.log'), ...(global ? ['-g', global] : [])];
  const child = spawn(NGINX, args, { stdio: 'ignore' });
  const close = async () => {
    await stop(child);
    await rm(dir, { recursive: true, force: true });
  };
  for (let attempt = 0; attempt < 200 && child.exitCode === null; attempt++) {
    if (await answers(port)) return { port, close };
    await sleep(25);
  }
  const log = await readFile(path.join(dir, 'error.log'), 'utf8').catch(() => '');
  await close();
  throw new Error(`nginx did not start on port ${port}:\n${log}`);
}
