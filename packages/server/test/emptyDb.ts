import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe } from 'vitest';
import { openDb } from '../src/db/connection.ts';
import type { Db } from '../src/db/schema.ts';
import { randomString } from '../src/lib/ids.ts';
import { Sealer } from '../src/lib/secrets.ts';
import { databases, testDatabaseUrl, withPg } from './harness.ts';

/**
 * For a migration's tests: each call gives an empty database of the suite's kind (a PostgreSQL
 * schema or an SQLite folder of its own), which the test migrates to the version before; all are
 * removed after each test.
 */
function emptyDatabases(database: { postgres: boolean }): () => Promise<Db> {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return async () => {
    if (database.postgres) {
      const schema = `test_${randomString(12)}`;
      await withPg((client) => client.query(`create schema ${schema}`));
      cleanups.push(() => withPg((client) => client.query(`drop schema if exists ${schema} cascade`)));
      const db = openDb({ dataDir: '', databaseUrl: testDatabaseUrl, schema });
      cleanups.push(() => db.destroy());
      return db;
    }
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'wharf-migrate-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const db = openDb({ dataDir, databaseUrl: null });
    cleanups.push(() => db.destroy());
    return db;
  };
}

/** The installation's sealer as a migration test hands it to `migrate`. */
export const migrationSealer = () => new Sealer('the installation secret');

/**
 * A migration's tests, once on each database the suite runs on: `body` declares them, given
 * `emptyDatabases` of that kind.
 */
export function describeMigration(migration: string, body: (olderDb: () => Promise<Db>) => void) {
  for (const database of databases)
    describe(`migration ${migration} (${database.name})`, () => body(emptyDatabases(database)));
}
