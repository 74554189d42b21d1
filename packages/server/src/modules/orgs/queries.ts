import type { Org } from '@wharf/contract';
import type { Database, Executor } from '../../db/schema.ts';
import { httpError } from '../../http/errors.ts';
import { logoUrl } from '../logos/logoUrl.ts';

export function toOrg(row: Database['orgs']): Org {
  return {
    _id: row.id,
    name: row.name,
    color: row.color,
    logo: logoUrl('orgs', row.id, row.logo_version),
    createdAt: row.created_at,
  };
}

export async function getOrg(db: Executor, orgId: string) {
  const row = await db.selectFrom('orgs').selectAll().where('id', '=', orgId).executeTakeFirst();
  if (!row) throw httpError('ORG_NOT_FOUND', 'Organization not found');
  return toOrg(row);
}

export async function listOrgsOfUser(db: Executor, userId: string) {
  const rows = await db
    .selectFrom('orgs')
    .innerJoin('members', 'members.org_id', 'orgs.id')
    .selectAll('orgs')
    .where('members.user_id', '=', userId)
    .orderBy('orgs.name')
    .execute();
  return rows.map(toOrg);
}
