import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import pg from 'pg';
import { runStatement } from './preparedStatements.ts';
import { asDatabaseFailure } from './unavailable.ts';

/**
 * How long a new connection may take before the database counts as unreachable: a database
 * restarting, or cut off, must give a quick 503, never a hang. Refused connections fail at once;
 * this bounds the silent ones, with room for a busy machine.
 */
const CONNECT_TIMEOUT_MS = 5_000;

/**
 * A connection to PostgreSQL that gives up connecting after `CONNECT_TIMEOUT_MS`. The pool is not
 * given that timeout itself: it would also bound the wait for a free connection under load, and
 * a busy database is no outage.
 */
export class BoundedClient extends pg.Client {
  constructor(config?: pg.ClientConfig) {
    super({ ...config, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  }
}

/** Where to connect, and how the connections show among PostgreSQL's (`pg_stat_activity`). */
export interface ConnectionTarget {
  databaseUrl: string;
  /** PostgreSQL schema to work in; tests give each run its own. */
  schema?: string;
  /** What the process or the connection is, e.g. `wharf edge worker` (an `application_name` in DATABASE_URL wins). */
  applicationName: string;
}

/** The settings every connection of Wharf's to PostgreSQL is made with, pooled or dedicated. */
export function connectionSettings({ databaseUrl, schema, applicationName }: ConnectionTarget): pg.ClientConfig {
  return {
    connectionString: databaseUrl,
    application_name: applicationName,
    // A connection a proxy or the network dropped without a word is found out, not waited on.
    keepAlive: true,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  };
}

const rethrow = (error: unknown): never => {
  throw asDatabaseFailure(error);
};

/** The client's queries, failing with `asDatabaseFailure`'s errors. */
function reportingQueries(client: pg.PoolClient): PostgresPoolClient['query'] {
  function query<R>(sql: string, parameters: readonly unknown[]): Promise<PostgresQueryResult<R>>;
  function query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  function query(text: string | PostgresCursor<unknown>, parameters: readonly unknown[] = []): unknown {
    // A cursor reports its failures as it reads; Wharf gives Kysely none to stream with.
    if (typeof text !== 'string') return client.query(text as unknown as pg.Submittable);
    return runStatement(client, text, [...parameters]).catch(rethrow);
  }
  return query;
}

/**
 * The pool of connections the queries run on, for Kysely. A connection PostgreSQL closes (a
 * restart, `pg_terminate_backend`, a proxy's idle timeout) is an expected event: it is dropped
 * and the next query connects anew. Its failures reach the callers as `DatabaseUnavailableError`.
 */
export function openPool(target: ConnectionTarget): PostgresPool {
  const pool = new pg.Pool({ ...connectionSettings(target), max: 10, Client: BoundedClient });
  // An idle connection that dies is reported here, and the pool has already let it go; a query
  // that needs a connection then makes a new one, and a request hears of the outage, not the log.
  pool.on('error', () => undefined);
  // A connection dying while lent out (held for a transaction or a lock between two queries) is
  // reported on the connection itself, where nothing else listens: heard here, it is let go on
  // its return to the pool, as node-postgres does with a connection no longer usable.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const lent = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const reporting = (client: pg.PoolClient): PostgresPoolClient => {
    const known = lent.get(client);
    if (known) return known;
    const wrapped: PostgresPoolClient = { query: reportingQueries(client), release: () => client.release() };
    lent.set(client, wrapped);
    return wrapped;
  };
  return {
    connect: () => pool.connect().then(reporting, rethrow),
    end: () => pool.end(),
  };
}
