import { readFileSync } from 'node:fs';

/** Set by the standalone package's build (scripts/pack.mjs), whose bundle has no package.json beside `../`. */
declare const WHARF_CLI_VERSION: string | undefined;

function versionOfPackage() {
  const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  return (packageJson as { version: string }).version;
}

/** The CLI's version, from its package.json: the one number `wharf --version` and the User-Agent show. */
export const version = typeof WHARF_CLI_VERSION === 'string' ? WHARF_CLI_VERSION : versionOfPackage();
