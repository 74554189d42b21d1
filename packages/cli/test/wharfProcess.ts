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
