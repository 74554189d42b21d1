// Bundles the server's TypeScript (and the contract it imports) into one ES module, so that
// `npm start` runs it on plain Node: no TypeScript loader in every process, about 50 MB less
// resident memory per process. Dependencies stay in node_modules, loaded as they are.
import { fileURLToPath } from 'node:url';
import { bundleServer } from './bundling.mjs';

const server = fileURLToPath(new URL('../packages/server', import.meta.url));

/** Takes a fraction of a second, so every start rebuilds: the bundle never lags the sources. */
export function buildServer() {
  return bundleServer(server, `${server}/dist`);
}
