import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { stopThread } from '../lib/stopThread.ts';
import { SERVER_PACKAGE_DIR } from '../packageDir.ts';

const CHECKPOINT_SCRIPT = path.join(SERVER_PACKAGE_DIR, 'src/db/threads/checkpoints.mjs');
const CHECKPOINT_EVERY_MS = 1_000;

/**
 * Moves SQLite's checkpoints off the connection that answers requests. SQLite checkpoints in the
 * commit that grows the write-ahead log past 1,000 pages, in the committing thread: for
 * better-sqlite3 that is the main thread, held while the database file is written and flushed
 * (measured: 100 ms and more after a release of thousands of files). The connection given stops
 * checkpointing; a thread with a connection of its own does it every second instead.
 */
export function checkpointInThread(connection: { pragma(source: string): unknown }, file: string) {
  connection.pragma('wal_autocheckpoint = 0');
  const thread = new Worker(CHECKPOINT_SCRIPT, { workerData: { file, everyMs: CHECKPOINT_EVERY_MS } });
  // Never what keeps the process alive; it ends with the connection.
  thread.unref();
  thread.on('error', () => undefined);
  return {
    /** Answers once the thread has closed its connection: SQLite's last close removes the log's files. */
    stop: () => stopThread(thread),
  };
}
