import { spawnSync } from 'node:child_process';
import { statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { verifyPassword } from '@wharf/contract/passwords';
import { describe, expect, it } from 'vitest';
import { exitCodes } from '../src/failures.ts';
import { version } from '../src/version.ts';
import { runInProcess } from './inProcess.ts';
import { runWharf } from './wharfProcess.ts';

const repositoryRoot = path.resolve(import.meta.dirname, '../../..');

describe('wharf', () => {
  it('prints its version and its help', async () => {
    expect((await runWharf(['--version'])).stdout).toBe(`${version}\n`);
    const help = await runWharf(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('wharf upload <folder> --url URL --site SITE_ID --token TOKEN');
    const uploadHelp = await runWharf(['upload', '--help']);
    expect(uploadHelp.stdout).toContain('WHARF_TOKEN');
    expect(uploadHelp.stdout).toContain('Exit codes:');
  });

  it('is installed as a command of the repository, for npx wharf', () => {
    const run = spawnSync(path.join(repositoryRoot, 'node_modules/.bin/wharf'), ['--version'], { encoding: 'utf8' });
    expect(run.stdout).toBe(`${version}\n`);
  });

  it('runs from a bundle it rebuilds when the sources are newer', async () => {
    const bundle = path.join(repositoryRoot, 'packages/cli/dist/wharf.mjs');
    await runWharf(['--version']);
    const built = statSync(bundle).mtimeMs;
    // Sources older than the bundle: it is used as it is.
    await runWharf(['--version']);
    expect(statSync(bundle).mtimeMs).toBe(built);
    // A source changed after the bundle (as after a git pull): the next start rebuilds it.
    const source = path.join(repositoryRoot, 'packages/cli/src/version.ts');
    const now = new Date();
    utimesSync(source, now, new Date(built + 1000));
    expect((await runWharf(['--version'])).stdout).toBe(`${version}\n`);
    expect(statSync(bundle).mtimeMs).toBeGreaterThan(built);
    utimesSync(source, now, now);
  });

  it('answers 2 to no command or an unknown one', async () => {
    expect((await runWharf([])).code).toBe(exitCodes.usage);
    const unknown = await runWharf(['deploy']);
    expect(unknown.code).toBe(exitCodes.usage);
    expect(unknown.stderr).toContain('Unknown command deploy. Commands: upload, hash-password');
  });

  it('hashes a password from standard input in the form WHARF_USERS takes', async () => {
    const run = await runInProcess(['hash-password'], { stdin: 'correct horse\n' });
    expect(run.code).toBe(0);
    const hash = run.stdout.trim();
    expect(hash).toMatch(/^scrypt\$/);
    expect(await verifyPassword('correct horse', hash)).toBe(true);
    expect(await verifyPassword('wrong', hash)).toBe(false);
  });
});
