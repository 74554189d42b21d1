#!/usr/bin/env node
// The `wharf` command, from its bundle (rebuilt when its sources are newer) or through tsx.
import { fileURLToPath } from 'node:url';
import { runBundled } from '../../../scripts/bundling.mjs';

const fromHere = (relative) => fileURLToPath(new URL(relative, import.meta.url));

await runBundled({
  entry: fromHere('../src/main.ts'),
  built: fromHere('../dist/wharf.mjs'),
  sources: [fromHere('../src'), fromHere('../package.json'), fromHere('../../contract/src')],
});
