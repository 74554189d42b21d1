import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { GitCommitInfo } from './source.ts';

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

/** The last commit's full SHA, author and message (its subject and body). */
export async function gitLastCommit(cwd: string): Promise<GitCommitInfo | null> {
  const out = await git(cwd, ['log', '-1', '--format=%H%x00%an%x00%B']);
  if (!out) return null;
  const [commit, author, message] = out.split('\0');
  return commit && author !== undefined && message !== undefined ? { commit, author, message } : null;
}
