#!/usr/bin/env node
// The server's maintenance commands (backup, restore), from their bundle (rebuilt when the
// sources are newer) or through tsx.
import { fileURLToPath } from 'node:url';
import { runBundled } from '../../../scripts/bundling.mjs';

const fromHere = (relative) => fileURLToPath(new URL(relative, import.meta.url));

await runBundled({
  entry: fromHere('../src/bin/wharfServer.ts'),
  built: fromHere('../dist/wharf-server.mjs'),
  sources: [fromHere('../src'), fromHere('../package.json'), fromHere('../../contract/src')],
});
