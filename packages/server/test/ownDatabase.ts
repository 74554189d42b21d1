import { randomString } from '../src/lib/ids.ts';
import { testDatabaseUrl, withPg } from './harness.ts';

export interface OwnDatabase {
  name: string;
  /** DATABASE_URL of it: Wharf works in its `public` schema, as in production. */
  url: string;
  /** Removes it, ending whatever connections it still has. */
  drop(): Promise<void>;
}

/**
 * A PostgreSQL database of the test's own on the test server, as `createdb` makes one (with its
 * `public` schema): for what a schema of the shared `test` database cannot show.
 */
export async function ownDatabase(purpose: string): Promise<OwnDatabase> {
  const name = `wharf_${purpose}_${randomString(10)}`;
  await withPg((client) => client.query(`create database ${name}`));
  const url = new URL(testDatabaseUrl!);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: async () => {
      await withPg((client) => client.query(`drop database if exists ${name} with (force)`));
    },
  };
}
