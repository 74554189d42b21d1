import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { hasChromium } from './chromium.ts';

const root = path.resolve(import.meta.dirname, '../..');
const web = path.join(root, 'packages/web');
const builtIndex = path.join(web, 'dist/index.html');
const sources = [
  path.join(web, 'src'),
  path.join(web, 'public'),
  path.join(web, 'index.html'),
  path.join(web, 'vite.config.ts'),
  path.join(web, 'package.json'),
  path.join(root, 'packages/contract/src'),
];

function newestChange(entry: string): number {
  if (!existsSync(entry)) return 0;
  const info = statSync(entry);
  if (!info.isDirectory()) return info.mtimeMs;
  return Math.max(info.mtimeMs, ...readdirSync(entry).map((name) => newestChange(path.join(entry, name))));
}

/** Vitest global setup: the journeys test the built console, so build it when missing or stale. */
export default function buildConsole() {
  if (!hasChromium) return;
  const built = existsSync(builtIndex) ? statSync(builtIndex).mtimeMs : 0;
  if (built > Math.max(...sources.map(newestChange))) return;
  console.log('e2e: building the console (packages/web/dist is missing or older than its sources)');
  // Vitest sets NODE_ENV=test, which would give the development build of React.
  execFileSync('npm', ['run', 'build', '-w', '@wharf/web'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
}
