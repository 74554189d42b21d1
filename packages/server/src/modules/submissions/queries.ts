import type { Submission, SubmissionFilter } from '@wharf/contract';
import type { Executor } from '../../db/schema.ts';
import { httpError } from '../../http/errors.ts';
import { flag, isSet, readJson } from '../../lib/json.ts';
import { type Page, pageOf } from '../../lib/paging.ts';

/** Submissions of a site, with the branch's name now (or when posted to, for a branch deleted since). */
function submissionsOf(db: Executor, siteId: string) {
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
    ])
    .where('form_submissions.site_id', '=', siteId);
}

function filtered(db: Executor, siteId: string, filter: SubmissionFilter) {
  let query = submissionsOf(db, siteId).where('form_submissions.spam', '=', flag(filter.spam));
  if (filter.form) query = query.where('form_submissions.form', '=', filter.form);
  if (filter.branchId) query = query.where('form_submissions.branch_id', '=', filter.branchId);
  return query;
}

type SubmissionRow = Awaited<ReturnType<ReturnType<typeof submissionsOf>['executeTakeFirstOrThrow']>>;

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

/** Newest first; ids break ties of the same millisecond in the order they were made. */
export function listSubmissions(db: Executor, siteId: string, filter: SubmissionFilter, page: Page) {
  return pageOf(
    filtered(db, siteId, filter),
    page,
    (query) => query.orderBy('form_submissions.created_at', 'desc').orderBy('form_submissions.id', 'desc'),
    toSubmission,
  );
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
