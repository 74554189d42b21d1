import type { RetryPolicy } from './api/retry.ts';
import type { ProgressStream } from './output/progress.ts';

/** Everything a command reads from or writes to the world, so tests can run one in-process. */
export interface CliContext {
  env: Record<string, string | undefined>;
  cwd: string;
  stdin: AsyncIterable<string | Buffer> & { isTTY?: boolean };
  stdout: { write(text: string): unknown };
  stderr: ProgressStream;
  retry: RetryPolicy;
  now(): Date;
  /** Asks the desktop to show a page (`wharf login`); a machine without a desktop shows nothing. */
  openBrowser(url: string): unknown;
}
