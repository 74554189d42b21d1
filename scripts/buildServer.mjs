// Bundles the server's TypeScript (and the contract it imports) into one ES module, so that
// `npm start` runs it on plain Node: no TypeScript loader in every process, about 50 MB less
// resident memory per process. Dependencies stay in node_modules, loaded as they are.
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
export const SERVER_BUNDLE = fileURLToPath(new URL('../packages/server/dist/main.mjs', import.meta.url));

/** Bare imports stay imports, except the workspace's own TypeScript packages. */
const keepDependenciesExternal = {
  name: 'keep-dependencies-external',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@wharf/') ? undefined : { path: args.path, external: true },
    );
  },
};

/** Takes a fraction of a second, so every start rebuilds: the bundle never lags the sources. */
export async function buildServer() {
  await build({
    absWorkingDir: root,
    entryPoints: ['packages/server/src/main.ts'],
    outfile: SERVER_BUNDLE,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    plugins: [keepDependenciesExternal],
    logLevel: 'warning',
  });
  return SERVER_BUNDLE;
}
