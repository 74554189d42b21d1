import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { defaultBranch, defaultReleaseName } from './defaults.ts';
import { gitBranch, gitCommit } from './git.ts';

const noGit = async () => null;

async function repository() {
  const root = await mkdtemp(path.join(os.tmpdir(), 'wharf-git-'));
  onTestFinished(() => rm(root, { recursive: true, force: true }));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, env: { PATH: process.env.PATH } });
  git('init', '--quiet', '--initial-branch', 'feature/search');
  git(
    '-c',
    'user.name=Test',
    '-c',
    'user.email=test@example.com',
    'commit',
    '--quiet',
    '--allow-empty',
    '-m',
    'Add the search page',
  );
  await mkdir(path.join(root, 'dist'));
  return { root, git };
}

describe('the branch an upload goes to by default', () => {
  it.each([
    [{ GITHUB_HEAD_REF: 'fix/typo', GITHUB_REF_NAME: '42/merge' }, 'fix/typo', 'GITHUB_HEAD_REF'],
    [{ GITHUB_HEAD_REF: '', GITHUB_REF_NAME: 'main' }, 'main', 'GITHUB_REF_NAME'],
    [{ FORGEJO_REF_NAME: 'preview' }, 'preview', 'FORGEJO_REF_NAME'],
    [{ GITEA_REF_NAME: 'staging' }, 'staging', 'GITEA_REF_NAME'],
    [{ CI_COMMIT_REF_NAME: 'release-2' }, 'release-2', 'CI_COMMIT_REF_NAME'],
    [{ BITBUCKET_BRANCH: 'develop' }, 'develop', 'BITBUCKET_BRANCH'],
    [{ BRANCH: 'anything' }, 'anything', 'BRANCH'],
  ])('is the CI variable when one is set (%j)', async (env, branch, source) => {
    expect(await defaultBranch(env, async () => 'from-git')).toEqual({ branch, source });
  });

  it('is the checked-out git branch outside CI', async () => {
    const { root } = await repository();
    expect(await defaultBranch({}, () => gitBranch(path.join(root, 'dist')))).toEqual({
      branch: 'feature/search',
      source: 'git',
    });
  });

  it('is main on a detached HEAD or outside git', async () => {
    const { root, git } = await repository();
    git('checkout', '--quiet', '--detach');
    expect(await defaultBranch({}, () => gitBranch(root))).toEqual({ branch: 'main', source: 'default' });
    expect(await defaultBranch({}, () => gitBranch(os.tmpdir()))).toMatchObject({ branch: 'main' });
  });
});

describe('the name a release gets by default', () => {
  it('is the short commit and its subject in git', async () => {
    const { root } = await repository();
    expect(await defaultReleaseName(() => gitCommit(path.join(root, 'dist')), new Date())).toMatch(
      /^[0-9a-f]{7,} Add the search page$/,
    );
  });

  it('is the time of the upload outside git', async () => {
    expect(await defaultReleaseName(noGit, new Date('2025-06-01T12:34:56Z'))).toBe('Upload of 2025-06-01 12:34:56 UTC');
  });
});
