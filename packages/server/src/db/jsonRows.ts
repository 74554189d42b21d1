import { type RawBuilder, sql } from 'kysely';
import { isPostgres } from './dialect.ts';
import type { Executor } from './schema.ts';

type ColumnType = 'text' | 'integer' | 'bigint';

/**
 * Rows handed to the database as one JSON parameter and read back as a table by the database's
 * own JSON functions: thousands of rows (a release's manifest) in one statement, with none of the
 * cost of building and binding a parameter for each value, and no limit on their number.
 */
export function jsonRows<C extends string>(
  db: Executor,
  columns: Record<C, ColumnType>,
  rows: Record<C, string | number>[],
): RawBuilder<Record<C, string | number>> {
  const names = Object.keys(columns) as C[];
  // Arrays rather than objects: the names are written once, not once per row.
  const json = JSON.stringify(rows.map((row) => names.map((name) => row[name])));
  if (isPostgres(db)) {
    const fields = names.map(
      (name, index) => sql`(value->>${sql.lit(index)})::${sql.raw(columns[name])} as ${sql.ref(name)}`,
    );
    return sql`(select ${sql.join(fields)} from json_array_elements(${json}::json) as value)`;
  }
  const fields = names.map((name, index) => sql`json_extract(value, ${sql.lit(`$[${index}]`)}) as ${sql.ref(name)}`);
  return sql`(select ${sql.join(fields)} from json_each(${json}))`;
}

/** Values handed to the database as one JSON parameter, read back as a one-column table `value`. */
export function jsonValues(db: Executor, values: string[]): RawBuilder<{ value: string }> {
  return jsonArrayValues(db, JSON.stringify(values));
}

/** `jsonValues` from the JSON text of an array of strings: the parameter of a reusable query. */
export function jsonArrayValues(db: Executor, json: string): RawBuilder<{ value: string }> {
  if (isPostgres(db)) return sql`(select json_array_elements_text(${json}::json) as value)`;
  return sql`(select value from json_each(${json}))`;
}
