import { hashPassword, verifyPasswordOfAnyone } from '@wharf/contract/passwords';
import type { PartsOf } from '../../features/parts.ts';
import { newSecret, now } from '../../lib/ids.ts';

export const FIRST_ADMIN = 'admin';

/** Whether the in-memory method has anybody to sign in: users from WHARF_USERS or the first admin. */
export async function hasPasswordLogins(parts: PartsOf<'config' | 'db' | 'log'>) {
  if (parts.config.users.size > 0) return true;
  return (await parts.db.selectFrom('password_logins').select('name').limit(1).executeTakeFirst()) !== undefined;
}

/**
 * Checks a user name and password against WHARF_USERS, then the stored logins. An unknown name
 * costs the same hashing as a known one, so the time of the answer does not reveal which names exist.
 */
export async function checkPassword(parts: PartsOf<'config' | 'db' | 'log'>, name: string, password: string) {
  return verifyPasswordOfAnyone(password, await passwordHashOf(parts, name));
}

/**
 * WHARF_USERS names win. The stored logins hold only the first-start `admin`, which keeps signing
 * in beside WHARF_USERS: what it made stays reachable until `wharf-server hand-over-admin` gives
 * its account to one of your users (or WHARF_USERS lists `admin` with a password of your own).
 */
async function passwordHashOf(parts: PartsOf<'config' | 'db' | 'log'>, name: string): Promise<string | undefined> {
  const configured = parts.config.users.get(name);
  if (configured) return configured;
  const stored = await parts.db
    .selectFrom('password_logins')
    .select('password_hash')
    .where('name', '=', name)
    .executeTakeFirst();
  return stored?.password_hash;
}

/**
 * With no sign-in method configured, a fresh installation gets an `admin` user whose random
 * password is printed once: the only way in, and never stored in clear. An installation with a
 * provider (or with passwords turned off) gets none: people come in through the provider.
 */
export async function ensureFirstAdmin(parts: PartsOf<'config' | 'db' | 'log'>) {
  const { signIn } = parts.config;
  const providerConfigured = Object.keys(signIn.codeHosts).length > 0 || signIn.oidc !== null;
  if (!signIn.passwords || providerConfigured || (await hasPasswordLogins(parts))) return;
  const password = newSecret().slice(0, 20);
  const inserted = await parts.db
    .insertInto('password_logins')
    .values({ name: FIRST_ADMIN, password_hash: await hashPassword(password), created_at: now() })
    .onConflict((oc) => oc.column('name').doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return;
  parts.log.warn(
    { user: FIRST_ADMIN, password },
    `First start: sign in at ${parts.config.url.origin} as "${FIRST_ADMIN}" with password ${password} (shown only this once)`,
  );
}
