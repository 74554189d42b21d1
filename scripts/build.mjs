// `npm run build`: what `npm start` builds before it runs the server (the console when it is
// missing or older than its sources, the server's bundle), without running it: for a service
// manager that runs the bundle itself (deploy/systemd), building as another account than Wharf's.
import { fileURLToPath } from 'node:url';
import { buildServer } from './buildServer.mjs';
import { buildConsole, consoleIsStale } from './consoleBuild.mjs';

/** Builds what the server runs from; resolves to the server bundle's path. */
export async function buildForStart() {
  if (consoleIsStale()) {
    console.log('Building the console (it is missing or older than its sources)…');
    try {
      buildConsole();
    } catch {
      process.exit(1); // Its build has said why.
    }
  }
  return buildServer();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildForStart();
