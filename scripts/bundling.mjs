// What `npm start` and the `wharf` command share to run their TypeScript on plain Node: one
// bundle per program, and whether a build is older than the files it is made from.
import { existsSync, mkdirSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** The latest modification time among these files and everything in these folders (0: none exist). */
export function newestChange(...entries) {
  return Math.max(
    0,
    ...entries.map((entry) => {
      if (!existsSync(entry)) return 0;
      const info = statSync(entry);
      if (!info.isDirectory()) return info.mtimeMs;
      return Math.max(info.mtimeMs, newestChange(...readdirSync(entry).map((name) => path.join(entry, name))));
    }),
  );
}

/** Whether `built` is missing or older than any of `sources`. */
export function isStale(built, sources) {
  return (existsSync(built) ? statSync(built).mtimeMs : 0) <= newestChange(...sources);
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

/** How every program is bundled: one ES module for Node, its dependencies left to node_modules. */
const bundleOptions = (entry) => ({
  entryPoints: [entry],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  write: false,
  plugins: [keepDependenciesExternal],
  logLevel: 'warning',
});

/** The packages the bundle of `entry` loads from node_modules, by name. */
export async function externalPackages(entry) {
  const { build } = await import('esbuild');
  const { metafile } = await build({ ...bundleOptions(entry), outdir: 'unwritten', metafile: true });
  const names = new Set();
  for (const output of Object.values(metafile.outputs))
    for (const { path: specifier, external } of output.imports) {
      if (!external || specifier.startsWith('node:')) continue;
      const parts = specifier.split('/');
      names.add(specifier.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]);
    }
  return names;
}

/** Writes a file aside and renames it into place, so a process starting meanwhile never loads half of one. */
export function writeWhole(file, contents) {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}`;
  writeFileSync(temporary, contents);
  renameSync(temporary, file);
}

/** Bundles `entry` (and the workspace packages it imports) into the ES module `outfile`. */
export async function bundle(entry, outfile, { sourcemap = false } = {}) {
  // Loaded only when a bundle is built: a program starting from a current bundle does not pay for it.
  const { build } = await import('esbuild');
  const result = await build({ ...bundleOptions(entry), outfile, sourcemap });
  for (const file of result.outputFiles) writeWhole(file.path, file.contents);
  return outfile;
}

/**
 * The server's two files in `outDir`: `server.mjs`, the bundle of main.ts, and `main.mjs`, the
 * bundle of start.ts, which turns Node's compile cache on before it loads server.mjs. Answers
 * main.mjs, the file to run.
 */
export async function bundleServer(serverDir, outDir) {
  await bundle(path.join(serverDir, 'src/main.ts'), path.join(outDir, 'server.mjs'), { sourcemap: true });
  return bundle(path.join(serverDir, 'src/start.ts'), path.join(outDir, 'main.mjs'));
}

/**
 * Runs a program from its bundle when the bundle is current: plain Node starts it in about half
 * the time tsx needs to load the TypeScript. A missing or stale bundle is rebuilt first (a
 * fraction of a second, by `make` when the program bundles itself otherwise); when that cannot be
 * done, the TypeScript runs through tsx as it is.
 */
export async function runBundled({ entry, built, sources, make = () => bundle(entry, built) }) {
  let current = !isStale(built, sources);
  if (!current) {
    try {
      await make();
      current = true;
    } catch {}
  }
  if (current) return import(pathToFileURL(built).href);
  const { register } = await import('tsx/esm/api');
  register();
  return import(pathToFileURL(entry).href);
}
