import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { randomString } from '../src/lib/ids.ts';
import { testDatabaseUrl, withPg } from './harness.ts';

export interface OwnDatabase {
  name: string;
  /** DATABASE_URL of it, for the Wharf processes that use it: they work in its `public` schema, as in production. */
  url: string;
  /** Ends every connection to it at once, as PostgreSQL does when it stops; or those of one `application_name`. */
  terminate(applicationName?: string): Promise<void>;
  /** Ends every connection to it again and again for `ms`: PostgreSQL restarting, as its clients see it. */
  terminateFor(ms: number): Promise<void>;
  /** Lets connections to it be made, or refuses them (the ones made already stay). */
  allowConnections(allowed: boolean): Promise<void>;
  /** Runs `work` on a connection to it. */
  use<T>(work: (client: pg.Client) => Promise<T>): Promise<T>;
  drop(): Promise<void>;
}

/**
 * A PostgreSQL database of the test's own on the test server, as `createdb` makes one (with its
 * `public` schema): the faults a test injects (its connections ended, new ones refused) reach only
 * the Wharf processes it started on it, never the machine's other users of that server; and it
 * shows what a schema of the shared `test` database cannot (a restore into an empty database).
 */
export async function ownDatabase(purpose: string): Promise<OwnDatabase> {
  // randomString is lower case: PostgreSQL folds an unquoted name so, and the URL must name the same database.
  const name = `wharf_${purpose}_${randomString(10)}`;
  await withPg((client) => client.query(`create database ${name}`));
  const url = new URL(testDatabaseUrl!);
  url.pathname = `/${name}`;
  const terminate = async (applicationName?: string) => {
    await withPg((client) =>
      client.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and ($2::text is null or application_name = $2)',
        [name, applicationName ?? null],
      ),
    );
  };
  return {
    name,
    url: url.toString(),
    terminate,
    async terminateFor(ms) {
      const until = Date.now() + ms;
      while (Date.now() < until) {
        await terminate();
        await sleep(100);
      }
    },
    async allowConnections(allowed) {
      await withPg((client) => client.query(`alter database ${name} allow_connections ${allowed}`));
    },
    async use(work) {
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      try {
        return await work(client);
      } finally {
        await client.end();
      }
    },
    async drop() {
      await withPg((client) => client.query(`drop database if exists ${name} with (force)`));
    },
  };
}
