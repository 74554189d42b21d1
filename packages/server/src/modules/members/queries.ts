import type { OrgMember } from '@wharf/contract';
import { sql } from 'kysely';
import type { Db, Executor } from '../../db/schema.ts';
import { httpError } from '../../http/errors.ts';
import { containing, type Page, pageOf } from '../../lib/paging.ts';

const memberColumns = [
  'members.id',
  'members.user_id',
  'members.admin',
  'members.owner',
  'members.created_at',
  'members.invite_email',
  'members.joined_provider',
  'members.joined_login',
  'members.joined_email',
  'users.name',
  'users.email',
] as const;

interface MemberWithUser {
  id: string;
  user_id: string;
  admin: number;
  owner: number;
  created_at: string;
  invite_email: string | null;
  joined_provider: string | null;
  joined_login: string | null;
  joined_email: string | null;
  name: string;
  email: string | null;
}

export function toOrgMember(row: MemberWithUser): OrgMember {
  return {
    _id: row.id,
    userId: row.user_id,
    name: row.name,
    email: row.email,
    admin: row.admin === 1,
    owner: row.owner === 1,
    invitation:
      row.invite_email === null
        ? null
        : {
            email: row.invite_email,
            provider: row.joined_provider ?? 'unknown',
            login: row.joined_login ?? row.name,
            providerEmail: row.joined_email,
          },
    createdAt: row.created_at,
  };
}

function membersWithUsers(db: Executor) {
  return db.selectFrom('members').innerJoin('users', 'users.id', 'members.user_id').select(memberColumns);
}

export async function getMember(db: Executor, memberId: string) {
  const row = await membersWithUsers(db).select('members.org_id').where('members.id', '=', memberId).executeTakeFirst();
  if (!row) throw httpError('MEMBER_NOT_FOUND', 'Member not found');
  return row;
}

/** Members of an organization, owner first then by name; `search` matches name or email. */
export function listMembers(db: Db, orgId: string, search: string | undefined, page: Page) {
  let query = membersWithUsers(db).where('members.org_id', '=', orgId);
  if (search) {
    const pattern = containing(search);
    query = query.where((eb) =>
      eb.or([
        eb(sql`lower(users.name)`, 'like', sql`${pattern} escape '\\'`),
        eb(sql`lower(coalesce(users.email, ''))`, 'like', sql`${pattern} escape '\\'`),
      ]),
    );
  }
  return pageOf(
    query,
    page,
    (q) => q.orderBy('members.owner', 'desc').orderBy('users.name').orderBy('members.id'),
    toOrgMember,
  );
}
