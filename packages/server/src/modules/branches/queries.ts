import type { Branch, Header, Redirect } from '@wharf/contract';
import type { Config } from '../../config/types.ts';
import type { Database, Executor } from '../../db/schema.ts';
import { httpError } from '../../http/errors.ts';
import { readJson } from '../../lib/json.ts';
import { type BranchSite, branchAddress } from '../../lib/urls.ts';

export type BranchRow = Database['branches'];

export function toBranch(config: Config, site: BranchSite, row: BranchRow): Branch {
  return {
    _id: row.id,
    siteId: row.site_id,
    name: row.name,
    slug: row.slug,
    url: branchAddress(config, site, row),
    release: row.release_id,
    hasPassword: row.password_hash !== null,
    headers: readJson<Header[]>(row.headers),
    expiresAt: row.expires_at,
    createdAt: row.created_at,
  };
}

export async function findBranch(db: Executor, siteId: string, branchId: string) {
  const row = await db
    .selectFrom('branches')
    .selectAll()
    .where('id', '=', branchId)
    .where('site_id', '=', siteId)
    .executeTakeFirst();
  if (!row) throw httpError('BRANCH_NOT_FOUND', 'Branch not found');
  return row;
}

export async function listBranchRows(db: Executor, siteId: string) {
  return db
    .selectFrom('branches')
    .selectAll()
    .where('site_id', '=', siteId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export function redirectsOf(row: BranchRow) {
  return readJson<Redirect[]>(row.redirects);
}

export async function isBranchNameTaken(db: Executor, siteId: string, name: string, exceptBranchId?: string) {
  let query = db.selectFrom('branches').select('id').where('site_id', '=', siteId).where('name', '=', name);
  if (exceptBranchId) query = query.where('id', '!=', exceptBranchId);
  return (await query.executeTakeFirst()) !== undefined;
}
