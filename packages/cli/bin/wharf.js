#!/usr/bin/env node
// The `wharf` command, from its bundle (rebuilt when its sources are newer) or through tsx. The
// bundle is the standalone one, its dependencies inlined: `wharf upload` then loads one file, and
// never the schema library the other commands check their answers with.
import { readFileSync } from 'node:fs';
import nodeModule from 'node:module';
import { fileURLToPath } from 'node:url';
import { runBundled, writeWhole } from '../../../scripts/bundling.mjs';

// The bundle's compiled code is kept between runs (Node 22.1 and later): a tenth of its start.
nodeModule.enableCompileCache?.();

const fromHere = (relative) => fileURLToPath(new URL(relative, import.meta.url));
const built = fromHere('../dist/wharf.mjs');

async function makeBundle() {
  const { bundleCli } = await import('../scripts/standalone.mjs');
  const { version } = JSON.parse(readFileSync(fromHere('../package.json'), 'utf8'));
  writeWhole(built, await bundleCli(version));
}

await runBundled({
  entry: fromHere('../src/main.ts'),
  built,
  sources: [fromHere('../src'), fromHere('../package.json'), fromHere('../../contract/src')],
  make: makeBundle,
});
