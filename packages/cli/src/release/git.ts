import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** What git says in `cwd`, or null when git is missing, the folder is outside a repository, or git fails. */
async function git(cwd: string, args: string[]): Promise<string | null> {
  try {
    const { stdout } = await run('git', args, { cwd, timeout: 10_000 });
    return stdout.trim() || null;
  } catch {
    return null;
  }
}

/** The checked-out branch; null on a detached HEAD, which is how most CI systems check out. */
export const gitBranch = (cwd: string) => git(cwd, ['symbolic-ref', '--quiet', '--short', 'HEAD']);

/** `abc1234 Subject of the last commit`. */
export const gitCommit = (cwd: string) => git(cwd, ['log', '-1', '--format=%h %s']);
