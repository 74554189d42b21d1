// The console's build (packages/web/dist) and whether it is older than what it is built from:
// `npm start` and the browser journeys both rebuild it when it is missing or stale.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isStale } from './bundling.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const web = path.join(root, 'packages/web');
const builtIndex = path.join(web, 'dist/index.html');
const sources = [
  path.join(web, 'src'),
  path.join(web, 'public'),
  path.join(web, 'build'),
  path.join(web, 'index.html'),
  path.join(web, 'vite.config.ts'),
  path.join(web, 'package.json'),
  path.join(root, 'packages/contract/src'),
];

export function consoleIsStale() {
  return isStale(builtIndex, sources);
}

/**
 * Builds the console into packages/web/dist, or into `outDir`: a release builds its own copy there,
 * so that it never rewrites the dist a running server (or a test's) is reading.
 */
export function buildConsole(outDir) {
  const elsewhere = outDir ? ['--', '--outDir', outDir, '--emptyOutDir'] : [];
  // A test runner's NODE_ENV=test would give the development build of React.
  execFileSync('npm', ['run', 'build', '-w', '@wharf/web', ...elsewhere], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
}
