import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { waitForHttp } from './http.ts';

export const NGINX = '/usr/sbin/nginx';

/** A configuration as one would write it for static files: 2 workers, sendfile, gzip_static, no access log. */
function configuration(dir: string, root: string, port: number) {
  return `worker_processes 2;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  types { text/html html; text/javascript js; image/jpeg jpg; }
  default_type application/octet-stream;
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  gzip_static on;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  server {
    listen 127.0.0.1:${port};
    root ${root};
  }
}
`;
}

/** Debian's nginx as a child process serving `root` on a loopback port. */
export async function startNginx(dir: string, root: string, port: number): Promise<ChildProcess> {
  const home = path.join(dir, 'nginx');
  await mkdir(home, { recursive: true });
  const conf = path.join(home, 'nginx.conf');
  await writeFile(conf, configuration(home, root, port));
  const child = spawn(NGINX, ['-p', home, '-c', conf, '-e', path.join(home, 'error.log')], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  await waitForHttp(port, 'localhost', '/index.html', child);
  return child;
}
