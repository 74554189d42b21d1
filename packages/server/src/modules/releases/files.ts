import type { ReleaseFile } from '@wharf/contract';
import { sql } from 'kysely';
import type { Executor } from '../../db/schema.ts';
import { containing, type Page, pageOf } from '../../lib/paging.ts';

/** The encodings the edge serves of a blob besides itself, as its row says they are stored. */
function encodingsOf(row: { br_size: number | null; gz_size: number | null }): ReleaseFile['encodings'] {
  return [...(row.br_size !== null ? (['br'] as const) : []), ...(row.gz_size !== null ? (['gzip'] as const) : [])];
}

/** A page of a release's files by path (a case-insensitive part of the path keeps some), with their encodings. */
export function listReleaseFiles(db: Executor, releaseId: string, filter: { search?: string }, page: Page) {
  let query = db
    .selectFrom('release_files')
    .innerJoin('blobs', 'blobs.hash', 'release_files.hash')
    .select(['release_files.path', 'release_files.size', 'release_files.hash', 'blobs.br_size', 'blobs.gz_size'])
    .where('release_files.release_id', '=', releaseId);
  if (filter.search)
    query = query.where(
      sql<string>`lower(release_files.path)`,
      'like',
      sql<string>`${containing(filter.search)} escape '\\'`,
    );
  return pageOf(
    query,
    page,
    (ordered) => ordered.orderBy('release_files.path'),
    (row): ReleaseFile => ({ path: row.path, size: Number(row.size), hash: row.hash, encodings: encodingsOf(row) }),
  );
}
