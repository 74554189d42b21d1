import { readFileSync } from 'node:fs';

const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/** The CLI's version, from its package.json: the one number `wharf --version` and the User-Agent show. */
export const version = packageJson.version;
