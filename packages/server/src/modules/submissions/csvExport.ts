import type { Submission, SubmissionFilter } from '@wharf/contract';
import type { Executor } from '../../db/schema.ts';
import { csvRow } from '../../lib/csv.ts';
import { allSubmissions } from './queries.ts';

/**
 * The submissions as CSV: `date, branch, form`, then a column for every field name any of them
 * has, sorted. The names are gathered in a first pass so that the header comes first.
 */
export async function* submissionsCsv(db: Executor, siteId: string, filter: SubmissionFilter) {
  const names = new Set<string>();
  for await (const submission of allSubmissions(db, siteId, filter)) {
    for (const name of Object.keys(submission.fields)) names.add(name);
  }
  const fields = [...names].sort();
  yield csvRow(['date', 'branch', 'form', ...fields]);
  for await (const submission of allSubmissions(db, siteId, filter)) yield csvRow(cellsOf(submission, fields));
}

function cellsOf(submission: Submission, fields: string[]) {
  return [
    submission.createdAt,
    submission.branchName,
    submission.form,
    ...fields.map((name) => submission.fields[name] ?? ''),
  ];
}

/** `submissions-{site}[-{form}][-spam]-{day}.csv`: site and form names are safe in a header as they are. */
export function csvFileName(siteName: string, filter: SubmissionFilter, day: string) {
  return `${['submissions', siteName, filter.form, filter.spam ? 'spam' : undefined, day].filter(Boolean).join('-')}.csv`;
}
