import { hashPassword, verifyPasswordOfAnyone } from '@wharf/contract/passwords';
import { newSecret, now } from '../../lib/ids.ts';
import type { WharfApp } from '../../wharfApp.ts';

export const FIRST_ADMIN = 'admin';

/** Whether the in-memory method has anybody to sign in: users from WHARF_USERS or the first admin. */
export async function hasPasswordLogins(app: WharfApp) {
  if (app.config.users.size > 0) return true;
  return (await app.db.selectFrom('password_logins').select('name').limit(1).executeTakeFirst()) !== undefined;
}

/**
 * Checks a user name and password against WHARF_USERS, then the stored logins. An unknown name
 * costs the same hashing as a known one, so the time of the answer does not reveal which names exist.
 */
export async function checkPassword(app: WharfApp, name: string, password: string) {
  return verifyPasswordOfAnyone(password, await passwordHashOf(app, name));
}

/**
 * WHARF_USERS names win. The stored logins hold only the first-start `admin`, which keeps signing
 * in beside WHARF_USERS: what it made stays reachable until `wharf-server hand-over-admin` gives
 * its account to one of your users (or WHARF_USERS lists `admin` with a password of your own).
 */
async function passwordHashOf(app: WharfApp, name: string): Promise<string | undefined> {
  const configured = app.config.users.get(name);
  if (configured) return configured;
  const stored = await app.db
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
export async function ensureFirstAdmin(app: WharfApp) {
  const { signIn } = app.config;
  const providerConfigured = Object.keys(signIn.codeHosts).length > 0 || signIn.oidc !== null;
  if (!signIn.passwords || providerConfigured || (await hasPasswordLogins(app))) return;
  const password = newSecret().slice(0, 20);
  const inserted = await app.db
    .insertInto('password_logins')
    .values({ name: FIRST_ADMIN, password_hash: await hashPassword(password), created_at: now() })
    .onConflict((oc) => oc.column('name').doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return;
  app.log.warn(
    { user: FIRST_ADMIN, password },
    `First start: sign in at ${app.config.url.origin} as "${FIRST_ADMIN}" with password ${password} (shown only this once)`,
  );
}
