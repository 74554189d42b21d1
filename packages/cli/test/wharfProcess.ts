import { spawn } from 'node:child_process';
import path from 'node:path';

export const WHARF_BIN = path.resolve(import.meta.dirname, '../bin/wharf.js');

export interface WharfRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout parsed, for runs with --json. */
  json(): any;
}

/**
 * Runs `wharf` as a user would, in a process of its own, with only the environment given:
 * the test runner's own CI or git variables must not choose the branch.
 */
export function runWharf(args: string[], options: { env?: Record<string, string>; cwd?: string } = {}) {
  return new Promise<WharfRun>((resolve, reject) => {
    const child = spawn(process.execPath, [WHARF_BIN, ...args], {
      cwd: options.cwd,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...options.env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, json: () => JSON.parse(stdout) }));
  });
}

/** A `wharf` still running: what it printed so far, and its end. */
export interface RunningWharf {
  /** Resolves with the first match of the pattern in stderr, as soon as it is printed. */
  stderrMatch(pattern: RegExp): Promise<RegExpMatchArray>;
  done: Promise<WharfRun>;
}

/** Starts `wharf` as runWharf does, for a test that answers it while it runs (`wharf login` waits for an approval). */
export function startWharf(args: string[], options: { env?: Record<string, string> } = {}): RunningWharf {
  const child = spawn(process.execPath, [WHARF_BIN, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...options.env },
  });
  let stdout = '';
  let stderr = '';
  const watchers = new Set<() => void>();
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk;
    for (const watch of watchers) watch();
  });
  const done = new Promise<WharfRun>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      for (const watch of watchers) watch();
      resolve({ code, stdout, stderr, json: () => JSON.parse(stdout) });
    });
  });
  const stderrMatch = (pattern: RegExp) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const watch = () => {
        const match = pattern.exec(stderr);
        if (match) resolve(match);
        else if (child.exitCode !== null) reject(new Error(`wharf ended without printing ${pattern}: ${stderr}`));
        else return;
        watchers.delete(watch);
      };
      watchers.add(watch);
      watch();
    });
  return { stderrMatch, done };
}
