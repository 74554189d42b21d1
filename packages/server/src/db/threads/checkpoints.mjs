// A checkpointing thread (node:worker_threads) of the SQLite database: copies the write-ahead log
// into the database file every so often, on a connection of its own, so that the main thread's
// connection never stops to write and flush the file itself. PASSIVE: it never waits for, nor
// holds up, a reader or a writer. Plain JavaScript, so that it runs as it is under the test
// runner, tsx and the bundled server.

import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const { file, everyMs } = workerData;
let db;
try {
  db = new Database(file, { fileMustExist: true });
  db.pragma('busy_timeout = 1000');
} catch {
  // The database went away before this thread began (a server that stopped as it started).
  process.exit(0);
}

const checkpoint = () => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (error) {
    parentPort.postMessage({ kind: 'error', message: String(error?.message ?? error) });
  }
};
const timer = setInterval(checkpoint, everyMs);

// stopThread's message (lib/stopThread.ts): the connection's close is this thread's last act.
parentPort.on('message', (message) => {
  if (message?.kind !== 'exit') return;
  clearInterval(timer);
  db.close();
  process.exit(0);
});
