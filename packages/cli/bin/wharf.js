#!/usr/bin/env node
// Runs the CLI bundled into one module when the bundle is current: plain Node starts it in about
// half the time tsx needs to load the TypeScript. A missing or stale bundle is rebuilt first (a
// fraction of a second); when that cannot be done, the TypeScript runs through tsx as it is.
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundle, isStale } from '../../../scripts/bundling.mjs';

const fromHere = (relative) => fileURLToPath(new URL(relative, import.meta.url));
const entry = fromHere('../src/main.ts');
const built = fromHere('../dist/wharf.mjs');
const sources = [fromHere('../src'), fromHere('../package.json'), fromHere('../../contract/src')];

async function current() {
  if (!isStale(built, sources)) return true;
  try {
    await bundle(entry, built);
    return true;
  } catch {
    return false;
  }
}

if (await current()) {
  await import(pathToFileURL(built).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/main.ts');
}
