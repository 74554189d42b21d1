import type { Worker } from 'node:worker_threads';

/** The message every Wharf thread script answers by exiting, between two of its tasks. */
export const EXIT_MESSAGE = { kind: 'exit' } as const;

/** A thread that does not exit by itself within this is terminated after all. */
const EXIT_GRACE_MS = 10_000;

/**
 * Stops a thread by asking it to exit (`EXIT_MESSAGE`) and waits until it has. `terminate()` stops
 * a thread wherever it is, and one caught inside Node's zlib constructors (a native handle made,
 * not yet initialised) aborts the whole process as the thread is cleaned up ("close before init"):
 * a thread that exits on a message does so between tasks, with every handle whole. A thread stuck
 * longer than the grace is terminated all the same, as a stop must end.
 *
 * The threads are unref'd (they never keep a process alive), so the thread is ref'd while it is
 * awaited: a process with nothing else left to do (a primary closing its database after its start
 * failed) would otherwise end there, with code 0, before the exit code it was about to set.
 */
export function stopThread(thread: Worker): Promise<void> {
  // -1 once the thread has exited: its exit event is past, and nothing would answer.
  if (thread.threadId === -1) return Promise.resolve();
  return new Promise((resolve) => {
    thread.ref();
    const deadline = setTimeout(() => void thread.terminate(), EXIT_GRACE_MS);
    thread.once('exit', () => {
      clearTimeout(deadline);
      resolve();
    });
    thread.postMessage(EXIT_MESSAGE);
  });
}
