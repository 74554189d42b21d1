import type { Form, SiteForm } from '@wharf/contract';
import { reusableQuery } from '../../db/reusableQuery.ts';
import type { Database, Executor } from '../../db/schema.ts';
import { isSet, readJson } from '../../lib/json.ts';

export type SiteFormRow = Database['site_forms'];

const formRowsOfSite = reusableQuery((db, siteId: string) =>
  db.selectFrom('site_forms').selectAll().where('site_id', '=', siteId),
);

/**
 * A site's forms in their order. A site has a handful, so they are put in order here: SQLite's
 * sorter took longer to start than the lookup took (8.5 µs against 3.2, none found), and a
 * releases page asks for them each time.
 */
export async function siteFormRows(db: Executor, siteId: string) {
  return (await formRowsOfSite(db, siteId)).sort((a, b) => a.position - b.position);
}

export const definitionOf = (row: SiteFormRow) => readJson<Form>(row.definition);
export const branchIdsOf = (row: SiteFormRow) => (row.branch_ids === null ? null : readJson<string[]>(row.branch_ids));

/** Whether a branch accepts posts to the form: every branch does, unless it is narrowed to others. */
export function seenBy(row: SiteFormRow, branchIds: string[]) {
  const narrowed = branchIdsOf(row);
  return narrowed === null || narrowed.some((id) => branchIds.includes(id));
}

/** A form as the API answers it; a branch deleted since it was narrowed to it is left out. */
export function toSiteForm(row: SiteFormRow, existingBranches: Set<string>): SiteForm {
  const narrowed = branchIdsOf(row);
  return {
    ...definitionOf(row),
    branches: narrowed === null ? null : narrowed.filter((id) => existingBranches.has(id)),
    detected: isSet(row.detected),
  };
}

export async function branchIdsOfSite(db: Executor, siteId: string) {
  const rows = await db.selectFrom('branches').select('id').where('site_id', '=', siteId).execute();
  return new Set(rows.map((row) => row.id));
}

/** The forms of a site; with `branchIds`, only those these branches see (none given: those of every branch). */
export async function listSiteForms(db: Executor, siteId: string, branchIds?: string[]) {
  const [rows, existing] = await Promise.all([siteFormRows(db, siteId), branchIdsOfSite(db, siteId)]);
  const kept = branchIds ? rows.filter((row) => seenBy(row, branchIds)) : rows;
  return kept.map((row) => toSiteForm(row, existing));
}

/** The form a post to this branch names (case aside), if the branch sees one of that name. */
export async function findBranchForm(db: Executor, siteId: string, branchId: string, name: string) {
  const row = await db
    .selectFrom('site_forms')
    .selectAll()
    .where('site_id', '=', siteId)
    .where('name_key', '=', name.toLowerCase())
    .executeTakeFirst();
  return row && seenBy(row, [branchId]) ? definitionOf(row) : undefined;
}

/** Sites' forms as this process last read them, by the revision they were read at (the newest sites kept). */
const formsAtRevision = new Map<string, { revision: number; rows: SiteFormRow[] }>();
const SITES_KEPT = 1_000;

/**
 * A site's forms, read from the database only when this process does not hold them at the
 * revision the caller's site row carries. Triggers count `forms_revision` up in the transaction
 * that changes a site's forms (migration 039), so a site row read after it commits names a
 * revision the old forms are not kept under. Rows read inside a transaction are neither kept nor
 * taken from here: what it changed may never commit.
 */
async function siteFormRowsAt(db: Executor, site: { id: string; forms_revision: number }) {
  if (db.isTransaction) return siteFormRows(db, site.id);
  const kept = formsAtRevision.get(site.id);
  if (kept?.revision === site.forms_revision) return kept.rows;
  // Read after the site row: these rows are of its revision or newer, never older.
  const rows = await siteFormRows(db, site.id);
  formsAtRevision.delete(site.id);
  formsAtRevision.set(site.id, { revision: site.forms_revision, rows });
  if (formsAtRevision.size > SITES_KEPT) formsAtRevision.delete(formsAtRevision.keys().next().value!);
  return rows;
}

/**
 * The forms of each release, as the branches serving it see them; a release none serves sees the
 * site-wide ones. A site row with its `forms_revision` lets the forms come from this process's memory.
 */
export async function formsOfReleases(
  db: Executor,
  site: { id: string; forms_revision?: number },
  servedBy: Map<string, string[]>,
) {
  const { forms_revision: revision } = site;
  const rows = await (revision === undefined
    ? siteFormRows(db, site.id)
    : siteFormRowsAt(db, { ...site, forms_revision: revision }));
  return (releaseId: string): Form[] => {
    const branchIds = servedBy.get(releaseId) ?? [];
    return rows.filter((row) => seenBy(row, branchIds)).map(definitionOf);
  };
}
