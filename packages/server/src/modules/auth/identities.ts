import type { Identity } from '@wharf/contract';
import type { Database, Db, Executor } from '../../db/schema.ts';
import { httpError } from '../../http/errors.ts';
import { newId, now } from '../../lib/ids.ts';

/** Who a provider says the person is; `subject` is the provider's stable id, never the email. */
export interface ProviderProfile {
  provider: string;
  subject: string;
  login: string;
  name: string;
  email: string | null;
  avatarUrl: string | null;
  /** Organizations, groups or claim values, lowercase: what allow-lists and WHARF_ORG_CREATORS match. */
  groups: string[];
}

export class IdentityInUseError extends Error {}

function findIdentity(db: Executor, provider: string, subject: string) {
  return db
    .selectFrom('identities')
    .selectAll()
    .where('provider', '=', provider)
    .where('subject', '=', subject)
    .executeTakeFirst();
}

function refreshed(profile: ProviderProfile) {
  return {
    login: profile.login,
    name: profile.name,
    email: profile.email,
    avatar_url: profile.avatarUrl,
    groups: JSON.stringify(profile.groups),
    last_sign_in_at: now(),
  };
}

/**
 * The user behind an account: found by (provider, subject), or created with it at the first
 * sign-in. What the provider says of the person (name, email, groups) is refreshed every time.
 */
export async function signInWith(db: Db, profile: ProviderProfile): Promise<{ userId: string; identityId: string }> {
  try {
    return await signInOnce(db, profile);
  } catch (error) {
    // Two first sign-ins of one person at once: the account the other one made is theirs.
    if (!(await findIdentity(db, profile.provider, profile.subject))) throw error;
    return signInOnce(db, profile);
  }
}

function signInOnce(db: Db, profile: ProviderProfile): Promise<{ userId: string; identityId: string }> {
  return db.transaction().execute(async (trx) => {
    const existing = await findIdentity(trx, profile.provider, profile.subject);
    if (existing) {
      await trx.updateTable('identities').set(refreshed(profile)).where('id', '=', existing.id).execute();
      await trx
        .updateTable('users')
        .set({ avatar_url: profile.avatarUrl })
        .where('id', '=', existing.user_id)
        .execute();
      return { userId: existing.user_id, identityId: existing.id };
    }
    const userId = newId();
    await trx
      .insertInto('users')
      .values({
        id: userId,
        name: profile.name,
        email: profile.email,
        provider: profile.provider,
        provider_id: profile.subject,
        avatar_url: profile.avatarUrl,
        created_at: now(),
      })
      .execute();
    const identityId = await insertIdentity(trx, userId, profile);
    return { userId, identityId };
  });
}

/** Connects another account to a signed-in user; an account already someone else's is refused. */
export async function linkIdentity(db: Db, userId: string, profile: ProviderProfile): Promise<string> {
  return db.transaction().execute(async (trx) => {
    const existing = await findIdentity(trx, profile.provider, profile.subject);
    if (existing && existing.user_id !== userId) throw new IdentityInUseError();
    if (existing) {
      await trx.updateTable('identities').set(refreshed(profile)).where('id', '=', existing.id).execute();
      return existing.id;
    }
    return insertIdentity(trx, userId, profile);
  });
}

async function insertIdentity(trx: Executor, userId: string, profile: ProviderProfile) {
  const id = newId();
  await trx
    .insertInto('identities')
    .values({
      id,
      user_id: userId,
      provider: profile.provider,
      subject: profile.subject,
      created_at: now(),
      ...refreshed(profile),
    })
    .execute();
  return id;
}

function toIdentity(row: Database['identities'], currentIdentityId: string | null): Identity {
  return {
    _id: row.id,
    provider: row.provider,
    login: row.login,
    name: row.name,
    email: row.email,
    avatarUrl: row.avatar_url,
    current: row.id === currentIdentityId,
    createdAt: row.created_at,
    lastSignInAt: row.last_sign_in_at,
  };
}

export async function listIdentities(db: Executor, userId: string, currentIdentityId: string | null) {
  const rows = await db
    .selectFrom('identities')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => toIdentity(row, currentIdentityId));
}

/**
 * Disconnects an account, unless it is the user's last way in. Sessions other devices opened with
 * it end; the user's first-provider record moves to an account that remains.
 */
export async function unlinkIdentity(db: Db, userId: string, identityId: string, currentSessionHash: string) {
  await db.transaction().execute(async (trx) => {
    const identities = await trx.selectFrom('identities').selectAll().where('user_id', '=', userId).execute();
    const target = identities.find((identity) => identity.id === identityId);
    if (!target) throw httpError('IDENTITY_NOT_FOUND', 'This account is not connected to you');
    const remaining = identities.filter((identity) => identity.id !== identityId);
    const first = remaining[0];
    if (!first) throw httpError('LAST_IDENTITY', 'Your only sign-in account cannot be disconnected');
    await trx.deleteFrom('identities').where('id', '=', identityId).execute();
    await trx
      .deleteFrom('sessions')
      .where('identity_id', '=', identityId)
      .where('id_hash', '<>', currentSessionHash)
      .execute();
    await trx
      .updateTable('users')
      .set({ provider: first.provider, provider_id: first.subject })
      .where('id', '=', userId)
      .where('provider', '=', target.provider)
      .where('provider_id', '=', target.subject)
      .execute();
  });
}

/** The groups of every account of a user, as `{provider}:{group}`, and the accounts as `{provider}:{login}`. */
export async function accountsOf(db: Executor, userId: string) {
  const rows = await db
    .selectFrom('identities')
    .select(['provider', 'login', 'groups', 'email'])
    .where('user_id', '=', userId)
    .execute();
  return rows.map((row) => ({
    provider: row.provider,
    login: row.login.toLowerCase(),
    email: row.email,
    groups: JSON.parse(row.groups) as string[],
  }));
}
