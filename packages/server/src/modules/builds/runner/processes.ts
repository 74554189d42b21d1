import { spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import type { BuildLog } from './buildLog.ts';

export interface StepOptions {
  cwd?: string;
  env: NodeJS.ProcessEnv;
  log: BuildLog;
  /** Aborted when the build is cancelled or runs out of time: the process is killed. */
  signal: AbortSignal;
}

/**
 * Runs a program of a build's step with its output going to the build's log as it comes; answers
 * its exit code (null when a signal ended it). Arguments go to the program as they are, never
 * through a shell.
 */
export function runLogged(command: string, args: string[], options: StepOptions): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      signal: options.signal,
      killSignal: 'SIGKILL',
    });
    for (const stream of [child.stdout, child.stderr]) {
      const decoder = new StringDecoder('utf8');
      stream.on('data', (chunk: Buffer) => options.log.write(decoder.write(chunk)));
      stream.on('end', () => options.log.write(decoder.end()));
    }
    child.on('error', (error) => {
      if (error.name === 'AbortError') resolve(null);
      else reject(error);
    });
    child.on('close', (code) => resolve(code));
  });
}

/** Runs a program quietly and answers what it printed; throws with its error output when it fails. */
export function runQuietly(command: string, args: string[], env: NodeJS.ProcessEnv, cwd?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
      else reject(new Error(Buffer.concat(err).toString('utf8').trim() || `${command} exited with ${code}`));
    });
  });
}
