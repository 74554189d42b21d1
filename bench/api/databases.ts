import path from 'node:path';
import { randomString } from '@wharf/server/testing';
import pg from 'pg';
import { type BenchServer, startBenchServer } from '../deploy/wharfServer.ts';

/** Where a bench server keeps its data: its own SQLite file, or a schema of its own in PostgreSQL. */
export interface BenchDatabase {
  name: 'SQLite' | 'PostgreSQL';
  start(): Promise<{
    server: BenchServer;
    database: { dataDir: string; databaseUrl: string | null; schema?: string };
    /** What the database does in time to a history that grew over months, done at once after writing it. */
    settle(): Promise<void>;
    /** The environment another Wharf needs to start on the same data (with the same data directory). */
    serverEnv: Record<string, string>;
    /** The environment bench/api/bare.ts needs to read the same data. */
    bareEnv: Record<string, string>;
  }>;
}

async function onPostgres<T>(url: string, work: (client: pg.Client) => Promise<T>) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const sqlite: BenchDatabase = {
  name: 'SQLite',
  async start() {
    const server = await startBenchServer();
    return {
      server,
      database: { dataDir: server.dataDir, databaseUrl: null },
      settle: async () => {},
      serverEnv: {},
      bareEnv: { BARE_SQLITE: path.join(server.dataDir, 'wharf.sqlite') },
    };
  },
};

/** PostgreSQL at `url`, in a fresh schema that is dropped when the server closes. */
function postgres(url: string): BenchDatabase {
  return {
    name: 'PostgreSQL',
    async start() {
      const schema = `bench_api_${randomString(10)}`;
      await onPostgres(url, (client) => client.query(`create schema ${schema}`));
      const separator = url.includes('?') ? '&' : '?';
      const inSchema = `${url}${separator}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
      const server = await startBenchServer({ DATABASE_URL: inSchema });
      const close = server.close.bind(server);
      server.close = async () => {
        await close();
        await onPostgres(url, (client) => client.query(`drop schema ${schema} cascade`));
      };
      // Autovacuum would have visited tables grown over months: statistics for the planner, and
      // the visibility map that lets a deep page be read from an index alone.
      const settle = () =>
        onPostgres(url, async (client) => {
          await client.query(`set search_path to ${schema}`);
          await client.query('vacuum analyze releases, hook_deliveries, form_submissions');
        });
      return {
        server,
        database: { dataDir: server.dataDir, databaseUrl: url, schema },
        settle,
        serverEnv: { DATABASE_URL: inSchema },
        bareEnv: { BARE_DATABASE_URL: inSchema },
      };
    },
  };
}

/** SQLite always; PostgreSQL when BENCH_DATABASE_URL (or the tests' WHARF_TEST_DATABASE_URL) names one. */
export function benchDatabases(only: string[] | null): BenchDatabase[] {
  const url = process.env.BENCH_DATABASE_URL || process.env.WHARF_TEST_DATABASE_URL;
  const all = [sqlite, ...(url ? [postgres(url)] : [])];
  return only ? all.filter((database) => only.includes(database.name.toLowerCase())) : all;
}
