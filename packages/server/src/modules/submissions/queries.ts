import type { Submission, SubmissionFilter } from '@wharf/contract';
import type { SelectQueryBuilder } from 'kysely';
import type { Database, Executor } from '../../db/schema.ts';
import { httpError } from '../../http/errors.ts';
import { flag, isSet, readJson } from '../../lib/json.ts';
import { inPageOrder, type Page, pageOf } from '../../lib/paging.ts';

/** Submissions with the branch's name now (or when posted to, for a branch deleted since). */
function submissionRows(db: Executor) {
  return db
    .selectFrom('form_submissions')
    .leftJoin('branches', 'branches.id', 'form_submissions.branch_id')
    .select((eb) => [
      'form_submissions.id',
      'form_submissions.site_id',
      'form_submissions.branch_id',
      'form_submissions.release_id',
      'form_submissions.form',
      'form_submissions.fields',
      'form_submissions.spam',
      'form_submissions.created_at',
      eb.fn.coalesce('branches.name', 'form_submissions.branch_name').as('branch_name'),
    ]);
}

function submissionsOf(db: Executor, siteId: string) {
  return submissionRows(db).where('form_submissions.site_id', '=', siteId);
}

function keeping<Q extends SelectQueryBuilder<Database, 'form_submissions', object>>(
  query: Q,
  filter: SubmissionFilter,
) {
  let kept = query.where('form_submissions.spam', '=', flag(filter.spam));
  if (filter.form) kept = kept.where('form_submissions.form', '=', filter.form);
  if (filter.branchId) kept = kept.where('form_submissions.branch_id', '=', filter.branchId);
  return kept as Q;
}

function filtered(db: Executor, siteId: string, filter: SubmissionFilter) {
  return keeping(submissionsOf(db, siteId), filter);
}

function filteredIds(db: Executor, siteId: string, filter: SubmissionFilter) {
  const ids = db
    .selectFrom('form_submissions')
    .select('form_submissions.id')
    .where('form_submissions.site_id', '=', siteId);
  return keeping(ids, filter);
}

type SubmissionRow = Awaited<ReturnType<ReturnType<typeof submissionRows>['executeTakeFirstOrThrow']>>;

function toSubmission(row: SubmissionRow): Submission {
  return {
    _id: row.id,
    siteId: row.site_id,
    branchId: row.branch_id,
    branchName: row.branch_name,
    releaseId: row.release_id,
    form: row.form,
    fields: readJson<Record<string, string>>(row.fields),
    spam: isSet(row.spam),
    createdAt: row.created_at,
  };
}

const newestFirst = <Q extends SelectQueryBuilder<Database, 'form_submissions', object>>(query: Q) =>
  query.orderBy('form_submissions.created_at', 'desc').orderBy('form_submissions.id', 'desc') as Q;

/**
 * Newest first; ids break ties of the same millisecond in the order they were made. Only the
 * page's rows are joined to their branches (`inPageOrder`).
 */
export async function listSubmissions(db: Executor, siteId: string, filter: SubmissionFilter, page: Page) {
  const kept = filter.form || filter.branchId ? undefined : filter.spam ? 'submissions_spam' : 'submissions_inbox';
  const ids = await pageOf(
    filteredIds(db, siteId, filter),
    page,
    newestFirst,
    (row) => row.id,
    kept && { db, kept: { list: kept, ownerId: siteId } },
  );
  if (ids.items.length === 0) return { items: [], count: ids.count };
  // By id alone: with the site's condition too, SQLite may walk the site's index instead.
  const rows = await submissionRows(db).where('form_submissions.id', 'in', ids.items).execute();
  return { items: inPageOrder(ids.items, rows).map(toSubmission), count: ids.count };
}

export async function findSubmission(db: Executor, siteId: string, submissionId: string) {
  const row = await submissionsOf(db, siteId).where('form_submissions.id', '=', submissionId).executeTakeFirst();
  if (!row) throw httpError('SUBMISSION_NOT_FOUND', 'Submission not found');
  return toSubmission(row);
}

export async function deleteSubmission(db: Executor, siteId: string, submissionId: string) {
  const deleted = await db
    .deleteFrom('form_submissions')
    .where('id', '=', submissionId)
    .where('site_id', '=', siteId)
    .executeTakeFirst();
  if (Number(deleted.numDeletedRows) === 0) throw httpError('SUBMISSION_NOT_FOUND', 'Submission not found');
}

const BATCH = 500;

/**
 * Every submission the filter keeps, newest first, a batch at a time: an export of any size holds
 * one batch in memory. The next batch starts below the last row seen, so rows posted meanwhile
 * neither shift nor repeat it.
 */
export async function* allSubmissions(db: Executor, siteId: string, filter: SubmissionFilter) {
  let last: { created_at: string; id: string } | undefined;
  for (;;) {
    let query = filtered(db, siteId, filter);
    if (last) {
      const { created_at, id } = last;
      query = query.where((eb) =>
        eb.or([
          eb('form_submissions.created_at', '<', created_at),
          eb.and([eb('form_submissions.created_at', '=', created_at), eb('form_submissions.id', '<', id)]),
        ]),
      );
    }
    const rows = await query
      .orderBy('form_submissions.created_at', 'desc')
      .orderBy('form_submissions.id', 'desc')
      .limit(BATCH)
      .execute();
    for (const row of rows) yield toSubmission(row);
    if (rows.length < BATCH) return;
    last = rows.at(-1);
  }
}
