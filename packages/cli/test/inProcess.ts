import { Readable } from 'node:stream';
import type { RetryPolicy } from '../src/api/retry.ts';
import { runCli } from '../src/cli.ts';

/** Runs `wharf` inside the test, for what a process cannot easily arrange: fast retries, a given stdin. */
export async function runInProcess(
  argv: string[],
  options: {
    env?: Record<string, string>;
    retry?: RetryPolicy;
    stdin?: string;
    cwd?: string;
    /** stderr is a terminal. */
    tty?: boolean;
    /** Told what is written to stderr as it is written, for a test that answers the command meanwhile. */
    onStderr?: (text: string) => void;
  } = {},
) {
  let stdout = '';
  let stderr = '';
  const opened: string[] = [];
  const code = await runCli(argv, {
    env: options.env ?? {},
    cwd: options.cwd ?? process.cwd(),
    stdin: Readable.from(options.stdin === undefined ? [] : [options.stdin]),
    stdout: { write: (text: string) => (stdout += text) },
    stderr: {
      isTTY: options.tty ?? false,
      write: (text: string) => {
        stderr += text;
        options.onStderr?.(text);
        return true;
      },
    },
    retry: options.retry ?? { attempts: 3, firstDelayMs: 10 },
    now: () => new Date('2025-06-01T12:00:00Z'),
    openBrowser: (url: string) => opened.push(url),
  });
  return { code, stdout, stderr, opened };
}
