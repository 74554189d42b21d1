import type { User } from '@wharf/contract';
import type { OrgCreators } from '../../config/types.ts';
import type { Database, Executor } from '../../db/schema.ts';
import { httpError } from '../../http/errors.ts';
import { accountsOf } from './identities.ts';

function toUser(row: Database['users'], canCreateOrgs: boolean): User {
  return {
    _id: row.id,
    name: row.name,
    email: row.email,
    provider: row.provider,
    avatarUrl: row.avatar_url,
    canCreateOrgs,
    createdAt: row.created_at,
  };
}

export async function getUser(db: Executor, orgCreators: OrgCreators, userId: string): Promise<User> {
  const row = await db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
  if (!row) throw httpError('USER_NOT_FOUND', 'User not found');
  return toUser(row, await mayCreateOrgs(db, orgCreators, userId));
}

/** WHARF_ORG_CREATORS: whether one of the user's accounts, or one of its groups, is listed. */
export async function mayCreateOrgs(db: Executor, creators: OrgCreators, userId: string) {
  if (creators.everyone) return true;
  const accounts = await accountsOf(db, userId);
  return accounts.some(
    (account) =>
      creators.users.some((user) => user.provider === account.provider && user.login === account.login) ||
      creators.groups.some((group) => group.provider === account.provider && account.groups.includes(group.group)),
  );
}
