import type { ChildProcess } from 'node:child_process';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { freePort } from '../edge/http.ts';
import { startNginx } from '../edge/nginx.ts';

/** A page as small as a page gets, yet one Lighthouse has nothing to say against. */
const HELLO = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="description" content="A static page, the baseline of the console's bench">
    <link rel="icon" href="data:,">
    <title>Hello</title>
  </head>
  <body>
    <h1>Hello</h1>
  </body>
</html>
`;

/** Debian's nginx serving the static "hello" page on a loopback port, configured as bench/edge does. */
export async function startBaseline(dir: string): Promise<{ url: string; nginx: ChildProcess }> {
  // nginx's workers drop to an unprivileged user when started as root: they must read the page.
  await chmod(dir, 0o755);
  const root = path.join(dir, 'hello');
  await mkdir(root, { recursive: true });
  await writeFile(path.join(root, 'index.html'), HELLO);
  const port = await freePort();
  const nginx = await startNginx(dir, root, port);
  return { url: `http://127.0.0.1:${port}/`, nginx };
}
