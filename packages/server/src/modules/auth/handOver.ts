import type { Db } from '../../db/schema.ts';
import { FIRST_ADMIN } from './passwordLogins.ts';

export class HandOverRefused extends Error {}

/**
 * Gives the first-start `admin`'s account to `to`, one of the users WHARF_USERS lists: its
 * organizations, teams, tokens and history stay with the account, which from now on signs in as
 * `to` with `to`'s password. The generated password stops working and `admin`'s sessions end.
 *
 * The account moves whole (its sign-in is renamed) rather than being merged into another, so it
 * must happen before `to` signs in for the first time: a user `to` made at a sign-in of its own
 * would be a second account.
 */
export async function handOverFirstAdmin(db: Db, configuredUsers: { has(name: string): boolean }, to: string) {
  if (!configuredUsers.has(to))
    throw new HandOverRefused(`WHARF_USERS does not list "${to}": list it first, or it could not sign in`);
  if (to === FIRST_ADMIN) throw new HandOverRefused(`"${FIRST_ADMIN}" is the account being handed over`);
  return db.transaction().execute(async (trx) => {
    const admin = await trx
      .selectFrom('identities')
      .select(['id', 'user_id'])
      .where('provider', '=', 'in-memory')
      .where('subject', '=', FIRST_ADMIN)
      .executeTakeFirst();
    const login = await trx
      .selectFrom('password_logins')
      .select('name')
      .where('name', '=', FIRST_ADMIN)
      .executeTakeFirst();
    if (!admin && !login) throw new HandOverRefused(`There is no first-start "${FIRST_ADMIN}" to hand over`);
    const taken = await trx
      .selectFrom('identities')
      .select('id')
      .where('provider', '=', 'in-memory')
      .where('subject', '=', to)
      .executeTakeFirst();
    if (taken)
      throw new HandOverRefused(
        `"${to}" has signed in already and has an account of its own: invite it into the organizations from the console instead`,
      );
    await trx.deleteFrom('password_logins').where('name', '=', FIRST_ADMIN).execute();
    if (!admin) return { organizations: 0 };
    await trx.updateTable('identities').set({ subject: to, login: to, name: to }).where('id', '=', admin.id).execute();
    await trx.updateTable('users').set({ name: to, provider_id: to }).where('id', '=', admin.user_id).execute();
    await trx.deleteFrom('sessions').where('user_id', '=', admin.user_id).execute();
    const organizations = await trx
      .selectFrom('members')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('user_id', '=', admin.user_id)
      .executeTakeFirstOrThrow();
    return { organizations: Number(organizations.count) };
  });
}
