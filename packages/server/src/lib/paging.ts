import type { SelectQueryBuilder } from 'kysely';
import type { Database } from '../db/schema.ts';

export interface Page {
  page: number;
  size: number;
}

/** Runs a list query for one page and counts the whole list: `{ items, count }` of design.md 'Data'. */
export async function pageOf<T extends keyof Database, O, Item>(
  query: SelectQueryBuilder<Database, T, O>,
  { page, size }: Page,
  order: (query: SelectQueryBuilder<Database, T, O>) => SelectQueryBuilder<Database, T, O>,
  toItem: (row: O) => Item,
) {
  const [rows, total] = await Promise.all([
    order(query)
      .limit(size)
      .offset(page * size)
      .execute(),
    query
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(toItem), count: Number((total as { count: number | string }).count) };
}

/** A LIKE pattern matching the text anywhere, with the wildcards in it escaped. */
export function containing(text: string) {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
