import { type SelectQueryBuilder, sql } from 'kysely';
import { isPostgres } from '../db/dialect.ts';
import type { Database, Executor } from '../db/schema.ts';

export interface Page {
  page: number;
  size: number;
}

/** The rows a page skips. */
export const offsetOf = ({ page, size }: Page) => page * size;

/**
 * A list whose length the database keeps (`list_counts`, migration 018): its name there and
 * whose it is. Only a list read without filters may be counted so.
 */
export interface KeptCount {
  list: 'releases' | 'hook_deliveries' | 'submissions_inbox' | 'submissions_spam';
  ownerId: string;
}

/** The length of a list as the database keeps it, by the triggers that add and remove its rows. */
export async function keptCount(db: Executor, { list, ownerId }: KeptCount) {
  const row = await db
    .selectFrom('list_counts')
    .select('total')
    .where('list', '=', list)
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}

/**
 * Runs a list query for one page and counts the whole list: `{ items, count }` of design.md
 * 'Data'. An unfiltered list names its kept count; a filtered one is counted by the same query
 * that reads the page (a window over what the filter keeps), so the filter runs once.
 */
export async function pageOf<T extends keyof Database, O, Item>(
  query: SelectQueryBuilder<Database, T, O>,
  { page, size }: Page,
  order: (query: SelectQueryBuilder<Database, T, O>) => SelectQueryBuilder<Database, T, O>,
  toItem: (row: O) => Item,
  counted?: { db: Executor; kept: KeptCount },
) {
  const offset = page * size;
  if (counted) {
    const [rows, count] = await Promise.all([
      order(query).limit(size).offset(offset).execute(),
      keptCount(counted.db, counted.kept),
    ]);
    return { items: rows.map(toItem), count };
  }
  const withTotal = query.select((eb) => eb.fn.countAll<number | string>().over().as('list_total'));
  const rows = (await order(withTotal as typeof query)
    .limit(size)
    .offset(offset)
    .execute()) as (O & { list_total: number | string })[];
  // A page past the end has no row to carry the total.
  const count = rows[0] ? Number(rows[0].list_total) : offset === 0 ? 0 : await countOf(query);
  return { items: rows.map(toItem), count };
}

export async function countOf<T extends keyof Database, O>(query: SelectQueryBuilder<Database, T, O>) {
  const total = await query
    .clearSelect()
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number((total as { count: number | string }).count);
}

/**
 * A page of ids carrying the whole list's length as `list_total` (kept, or a window over the
 * filter), to be joined to its rows: one statement reads a page, however deep, and its count.
 */
export function pageIds<T extends keyof Database, O>(
  query: SelectQueryBuilder<Database, T, O>,
  { size, offset }: { size: number; offset: number },
  order: (query: SelectQueryBuilder<Database, T, O>) => SelectQueryBuilder<Database, T, O>,
  kept?: KeptCount,
) {
  const withTotal = query.select((eb) =>
    kept
      ? sql<number>`(select total from list_counts where list = ${kept.list} and owner_id = ${kept.ownerId})`.as(
          'list_total',
        )
      : eb.fn.countAll<number>().over().as('list_total'),
  );
  return order(withTotal as typeof query)
    .limit(size)
    .offset(offset) as unknown as SelectQueryBuilder<Database, T, O & { list_total: number | string | null }>;
}

/**
 * Whether a page of a list is read with its rows in one pass over the list's index, rather than as
 * a page of ids joined back to the table. SQLite looks a row up in the table only for a column the
 * index lacks, never for the rows an OFFSET skips, so there the one pass is faster at every depth
 * (bench/README, "A page in one pass"). PostgreSQL reads every row it skips from the table unless
 * the page is found in the index alone, and a filtered list's window count would read every row the
 * filter keeps: those page their ids first.
 */
export function pagesInOnePass(db: Executor, kept: KeptCount | undefined): boolean {
  return kept !== undefined && !isPostgres(db);
}

/** The list's length from a page of `pageIds`, or counted apart when the page is past its end. */
export async function totalOf(
  rows: { list_total: number | string | null }[],
  { page, size }: Page,
  count: () => Promise<number>,
) {
  if (rows[0]) return Number(rows[0].list_total ?? 0);
  return page * size === 0 ? 0 : count();
}

/**
 * The rows of a page, read by their ids, in the page's order. A list pages over ids alone (found in
 * its index, however deep the page) and then reads only the page's rows: reading the rows it skips,
 * or joining them, is what made deep pages slow.
 */
export function inPageOrder<Row extends { id: string }>(ids: string[], rows: Row[]): Row[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** A LIKE pattern matching the text anywhere, with the wildcards in it escaped. */
export function containing(text: string) {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
