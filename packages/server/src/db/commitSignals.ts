import { sql } from 'kysely';
import pg from 'pg';
import { type ConnectionLog, DedicatedConnection } from './dedicatedConnection.ts';
import { isPostgres } from './dialect.ts';
import type { Executor } from './schema.ts';

/** What a commit brings that other nodes should look at now rather than at their next poll. */
const COMMIT_SIGNALS = ['events', 'jobs'] as const;
export type CommitSignal = (typeof COMMIT_SIGNALS)[number];

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

/**
 * Listens for the signals of `signalAtCommit` on a connection of its own, made again whenever it
 * drops (the pollers cover the gap). Signals said while it was not listening are lost, so its
 * return counts as every signal said once. Answers how to stop.
 */
export function listenForCommits(
  connection: { databaseUrl: string; schema?: string },
  onSignal: (signal: CommitSignal) => void,
  log: ConnectionLog,
) {
  const listening = new DedicatedConnection({
    ...connection,
    applicationName: 'wharf listen',
    purpose: 'listening for other nodes’ commits',
    async setUp(client) {
      client.on('notification', (message) => onSignal(message.payload as CommitSignal));
      const { rows } = await client.query<{ schema: string }>('select current_schema() as schema');
      await client.query(`listen ${pg.escapeIdentifier(`wharf:${rows[0]!.schema}`)}`);
    },
    onBack() {
      for (const signal of COMMIT_SIGNALS) onSignal(signal);
    },
    log,
  });
  return () => listening.close();
}
