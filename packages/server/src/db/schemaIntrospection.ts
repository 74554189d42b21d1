import { type DatabaseIntrospector, sql, type TableMetadata } from 'kysely';
import type { Db } from './schema.ts';

/**
 * What the migrator learns of the database, asked of Wharf's own schema alone. Kysely's PostgreSQL
 * introspection lists every table of every schema, with each column's serial sequence: a schema
 * another application (or another Wharf, as tests run side by side) changes meanwhile fails that
 * look with "column … of relation … does not exist", and the look grows with every schema the
 * database holds. The migrator needs only to know whether its own two tables exist.
 */
function introspectionOf(db: Db, schema: string): DatabaseIntrospector {
  const getTables = async (): Promise<TableMetadata[]> => {
    const { rows } = await sql<{ name: string; kind: string }>`
      select table_name as name, table_type as kind from information_schema.tables where table_schema = ${schema}
    `.execute(db);
    return rows.map(({ name, kind }) => ({ name, schema, isView: kind === 'VIEW', columns: [] }));
  };
  return {
    getSchemas: async () => {
      const { rows } = await sql<{ name: string }>`
        select nspname as name from pg_catalog.pg_namespace where nspname = ${schema}
      `.execute(db);
      return rows;
    },
    getTables,
    getMetadata: async () => ({ tables: await getTables() }),
  };
}

/**
 * `db` as the migrator is given it on PostgreSQL: the same connection or pool, whose introspection
 * covers `schema` alone (`introspectionOf`). Every other member is `db`'s own, bound to it, as
 * Kysely's classes keep their state in private fields.
 */
export function withSchemaIntrospection(db: Db, schema: string | undefined): Db {
  if (schema === undefined) return db;
  const introspection = introspectionOf(db, schema);
  return new Proxy(db, {
    get(target, key) {
      if (key === 'introspection') return introspection;
      const value = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
