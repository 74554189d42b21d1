#!/usr/bin/env node
// Writes the `wharf` command as the npm package `wharf-cli` (standalone.mjs makes it: one bundled
// ES module, no dependencies), ready to publish or to install anywhere; every Wharf server also
// serves the same package at /cli/wharf-cli.tgz.
// Usage: node packages/cli/scripts/pack.mjs [destination folder]   → prints the tarball's path
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleCli, packCli, tarballNameOf } from './standalone.mjs';

const cliDir = fileURLToPath(new URL('..', import.meta.url));
const destination = path.resolve(process.argv[2] ?? cliDir);
const { version } = JSON.parse(readFileSync(path.join(cliDir, 'package.json'), 'utf8'));

const tarball = await packCli(version, await bundleCli(version));
mkdirSync(destination, { recursive: true });
const file = path.join(destination, tarballNameOf(version));
writeFileSync(file, tarball);
console.log(file);
