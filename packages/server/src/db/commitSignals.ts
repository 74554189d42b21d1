import { sql } from 'kysely';
import pg from 'pg';
import { isPostgres } from './dialect.ts';
import type { Executor } from './schema.ts';

/** What a commit brings that other nodes should look at now rather than at their next poll. */
export type CommitSignal = 'events' | 'jobs';

const RETRY_AFTER_MS = 1_000;

/**
 * Tells every node listening on this PostgreSQL schema, once the caller's transaction commits,
 * that it brought outbox events or jobs (PostgreSQL's NOTIFY: delivered at commit, not at all on
 * a rollback, and once per transaction however many times it is said). SQLite has one node: its
 * own process wakes itself.
 */
export async function signalAtCommit(trx: Executor, signal: CommitSignal) {
  if (!isPostgres(trx)) return;
  await sql`select pg_notify('wharf:' || current_schema(), ${signal})`.execute(trx);
}

interface ListenerLog {
  warn(details: Record<string, unknown>, message: string): void;
}

/**
 * Listens for the signals of `signalAtCommit` on a connection of its own, and connects again
 * after a failure (the pollers cover the gap). Answers how to stop.
 */
export function listenForCommits(
  connection: { databaseUrl: string; schema?: string },
  onSignal: (signal: CommitSignal) => void,
  log: ListenerLog,
) {
  let client: pg.Client | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  const connect = async () => {
    const next = new pg.Client({
      connectionString: connection.databaseUrl,
      ...(connection.schema ? { options: `-c search_path=${connection.schema}` } : {}),
    });
    next.on('error', (err) => reconnect(err));
    next.on('notification', (message) => onSignal(message.payload as CommitSignal));
    client = next;
    try {
      await next.connect();
      const { rows } = await next.query<{ schema: string }>('select current_schema() as schema');
      await next.query(`listen ${pg.escapeIdentifier(`wharf:${rows[0]!.schema}`)}`);
    } catch (err) {
      reconnect(err);
    }
  };
  const reconnect = (err: unknown) => {
    if (stopped) return;
    log.warn({ err }, 'listening for other nodes’ commits failed; polling until it is back');
    const failed = client;
    client = null;
    void failed?.end().catch(() => undefined);
    clearTimeout(retry);
    retry = setTimeout(() => void connect(), RETRY_AFTER_MS);
    retry.unref();
  };
  void connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await client?.end().catch(() => undefined);
  };
}
