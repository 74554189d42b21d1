import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { SERVER_PACKAGE_DIR } from '../src/packageDir.ts';

const COMMAND = path.join(SERVER_PACKAGE_DIR, 'bin/wharf-server.js');

/** Runs `wharf-server` (backup, restore) as an operator would, in a folder of its own and with only the given settings. */
export function wharfServer(args: string[], settings: Record<string, string>) {
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, [COMMAND, ...args], {
      cwd: os.tmpdir(),
      env: { ...inherited, LOG_LEVEL: 'silent', ...settings },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    child.on('exit', (code) => resolve({ code, output }));
  });
}
