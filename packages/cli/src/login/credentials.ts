import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CliFailure, exitCodes } from '../failures.ts';

/** What `wharf login` keeps of one server: the token, and what `wharf whoami` and `logout` tell of it. */
export interface StoredLogin {
  token: string;
  tokenId: string;
  tokenName: string;
  expiresAt: string | null;
  user: string;
}

type Env = Record<string, string | undefined>;

/** $XDG_CONFIG_HOME/wharf, else ~/.config/wharf (%APPDATA%\wharf on Windows). */
export function credentialsFile(env: Env): string {
  const windows = process.platform === 'win32' && env.APPDATA;
  const base = env.XDG_CONFIG_HOME || (windows ? env.APPDATA! : path.join(os.homedir(), '.config'));
  return path.join(base, 'wharf', 'credentials.json');
}

/** A server's key in the file: its URL without a trailing slash, so `--url http://x/` finds `http://x`. */
export const serverKey = (url: URL) => url.href.replace(/\/+$/, '');

const isLogin = (value: unknown): value is StoredLogin => {
  const login = value as Partial<StoredLogin> | null;
  return typeof login?.token === 'string' && typeof login.tokenId === 'string' && typeof login.user === 'string';
};

/** Every stored login by server; a missing file holds none, a damaged one says how to mend it. */
export function readLogins(env: Env): Record<string, StoredLogin> {
  const file = credentialsFile(env);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new CliFailure(exitCodes.unexpected, `Cannot read ${file}: ${(error as Error).message}`);
  }
  let servers: unknown;
  try {
    servers = (JSON.parse(text) as { servers?: unknown }).servers;
  } catch {}
  if (typeof servers !== 'object' || servers === null || !Object.values(servers).every(isLogin)) {
    throw new CliFailure(exitCodes.usage, `${file} is damaged: delete it, then run wharf login again`);
  }
  return servers as Record<string, StoredLogin>;
}

export function storedLogin(env: Env, url: URL): StoredLogin | null {
  return readLogins(env)[serverKey(url)] ?? null;
}

/**
 * Writes the logins whole, readable by the user alone (the folder 0700, the file 0600), through a
 * file renamed into place: a crash or a second `wharf` never leaves half a file.
 */
function writeLogins(env: Env, servers: Record<string, StoredLogin>) {
  const file = credentialsFile(env);
  const folder = path.dirname(file);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  // mkdir's mode passes through the umask, and the folder may have been there before.
  chmodSync(folder, 0o700);
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, `${JSON.stringify({ servers }, null, 2)}\n`, { mode: 0o600 });
  chmodSync(partial, 0o600);
  renameSync(partial, file);
}

export function storeLogin(env: Env, url: URL, login: StoredLogin) {
  writeLogins(env, { ...readLogins(env), [serverKey(url)]: login });
}

export function forgetLogin(env: Env, url: URL) {
  const { [serverKey(url)]: _forgotten, ...others } = readLogins(env);
  if (Object.keys(others).length === 0) rmSync(credentialsFile(env), { force: true });
  else writeLogins(env, others);
}
