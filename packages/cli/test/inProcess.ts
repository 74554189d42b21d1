import { Readable } from 'node:stream';
import type { RetryPolicy } from '../src/api/retry.ts';
import { runCli } from '../src/cli.ts';

/** Runs `wharf` inside the test, for what a process cannot easily arrange: fast retries, a given stdin. */
export async function runInProcess(
  argv: string[],
  options: { env?: Record<string, string>; retry?: RetryPolicy; stdin?: string; cwd?: string } = {},
) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    env: options.env ?? {},
    cwd: options.cwd ?? process.cwd(),
    stdin: Readable.from(options.stdin === undefined ? [] : [options.stdin]),
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    retry: options.retry ?? { attempts: 3, firstDelayMs: 10 },
    now: () => new Date('2025-06-01T12:00:00Z'),
  });
  return { code, stdout, stderr };
}
