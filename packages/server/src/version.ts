import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SERVER_PACKAGE_DIR } from './packageDir.ts';

/** The API version: the server package's version. */
export const API_VERSION: string = JSON.parse(
  readFileSync(path.join(SERVER_PACKAGE_DIR, 'package.json'), 'utf8'),
).version;
