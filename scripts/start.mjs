// `npm start`: builds the console when it is missing, then runs the server.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const consoleIndex = new URL('../packages/web/dist/index.html', import.meta.url);
if (!existsSync(consoleIndex)) {
  console.log('Building the console (first start only)…');
  const build = spawnSync('npm', ['run', 'build', '-w', '@wharf/web'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const server = spawnSync('npm', ['run', 'start', '-w', '@wharf/server'], { stdio: 'inherit' });
process.exit(server.status ?? 1);
