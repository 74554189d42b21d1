import { parseArgs } from 'node:util';
import { usageError } from '../failures.ts';
import { readLogins } from '../login/credentials.ts';
import { serverUrl } from './connection.ts';

/** The options of `login`, `logout` and `whoami`. */
export const accountOptions = {
  url: { type: 'string' },
  'no-browser': { type: 'boolean', default: false },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

export function parseAccountArguments(argv: string[]) {
  try {
    return parseArgs({ args: argv, options: accountOptions, allowPositionals: false, strict: true }).values;
  } catch (error) {
    throw usageError((error as Error).message);
  }
}

/**
 * The server of `logout` and `whoami`: --url, else WHARF_URL, else the only server logged in to;
 * null when none is given and there is no login at all.
 */
export function loggedInServer(url: string | undefined, env: Record<string, string | undefined>): URL | null {
  const given = url ?? env.WHARF_URL;
  if (given) return serverUrl(given);
  const servers = Object.keys(readLogins(env));
  if (servers.length === 0) return null;
  if (servers.length === 1) return new URL(servers[0]!);
  throw usageError(`Which server? You are logged in to ${servers.join(', ')}: give --url or set WHARF_URL`);
}
