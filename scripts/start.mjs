// `npm start`: builds the console when it is missing and bundles the server, then runs the server
// in this process's place.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { buildServer } from './buildServer.mjs';

const consoleIndex = new URL('../packages/web/dist/index.html', import.meta.url);
if (!existsSync(consoleIndex)) {
  console.log('Building the console (first start only)…');
  const build = spawnSync('npm', ['run', 'build', '-w', '@wharf/web'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const main = await buildServer();
const server = spawn(process.execPath, ['--enable-source-maps', main], { stdio: 'inherit' });
// Pass stop signals on, so the server can finish requests in flight before it exits.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
