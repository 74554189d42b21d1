import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { BenchCertificate } from './certificate.ts';
import { waitForHttp } from './http.ts';

export const NGINX = '/usr/sbin/nginx';

/** nginx's HTTPS listener: the bench's certificate on its own port. */
export interface NginxTls extends BenchCertificate {
  port: number;
}

/**
 * The same files over TLS as one would serve them: a shared session cache (resumption across
 * workers), session tickets on (nginx's default), HTTP/1.1 only (no `http2`: wrk speaks 1.1).
 */
function tlsServer(root: string, tls: NginxTls) {
  return `  server {
    listen 127.0.0.1:${tls.port} ssl;
    ssl_certificate ${tls.certFile};
    ssl_certificate_key ${tls.keyFile};
    ssl_session_cache shared:SSL:10m;
    root ${root};
  }
`;
}

/** A configuration as one would write it for static files: 2 workers, sendfile, gzip_static, no access log. */
function configuration(dir: string, root: string, port: number, tls: NginxTls | null) {
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
${tls ? tlsServer(root, tls) : ''}}
`;
}

/** Debian's nginx as a child process serving `root` on a loopback port, and over TLS on another when `tls` is given. */
export async function startNginx(
  dir: string,
  root: string,
  port: number,
  tls: NginxTls | null = null,
): Promise<ChildProcess> {
  const home = path.join(dir, 'nginx');
  await mkdir(home, { recursive: true });
  const conf = path.join(home, 'nginx.conf');
  await writeFile(conf, configuration(home, root, port, tls));
  const child = spawn(NGINX, ['-p', home, '-c', conf, '-e', path.join(home, 'error.log')], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  await waitForHttp(port, 'localhost', '/index.html', child);
  return child;
}
