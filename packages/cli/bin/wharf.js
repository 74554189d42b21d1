#!/usr/bin/env node
// Runs the CLI bundled into one module when the bundle is current: plain Node starts it in about
// half the time tsx needs to load the TypeScript. A missing or stale bundle is rebuilt first (a
// fraction of a second); when that cannot be done, the TypeScript runs through tsx as it is.
import { existsSync, mkdirSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const cliDir = fileURLToPath(new URL('..', import.meta.url));
const bundle = `${cliDir}dist/wharf.mjs`;
const sources = [
  `${cliDir}src`,
  `${cliDir}package.json`,
  fileURLToPath(new URL('../../contract/src', import.meta.url)),
];

function newestChange(entry) {
  if (!existsSync(entry)) return 0;
  const info = statSync(entry);
  if (!info.isDirectory()) return info.mtimeMs;
  return Math.max(info.mtimeMs, ...readdirSync(entry).map((name) => newestChange(`${entry}/${name}`)));
}

/** Bare imports stay imports, except the workspace's own TypeScript packages. */
const keepDependenciesExternal = {
  name: 'keep-dependencies-external',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@wharf/') ? undefined : { path: args.path, external: true },
    );
  },
};

async function buildBundle() {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [`${cliDir}src/main.ts`],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    outfile: bundle,
    plugins: [keepDependenciesExternal],
    logLevel: 'silent',
  });
  // Written aside and renamed: two commands starting at once never run half a file.
  mkdirSync(`${cliDir}dist`, { recursive: true });
  const temporary = `${bundle}.${process.pid}`;
  writeFileSync(temporary, result.outputFiles[0].contents);
  renameSync(temporary, bundle);
}

async function current() {
  const built = existsSync(bundle) ? statSync(bundle).mtimeMs : 0;
  if (built > Math.max(...sources.map(newestChange))) return true;
  try {
    await buildBundle();
    return true;
  } catch {
    return false;
  }
}

if (await current()) {
  await import(pathToFileURL(bundle).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/main.ts');
}
