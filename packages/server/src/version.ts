import { readFileSync } from 'node:fs';

/** The API version: the server package's version. */
export const API_VERSION: string = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
).version;
