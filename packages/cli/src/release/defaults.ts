import { MAX_TEXT_LENGTH } from '@wharf/contract/upload';

/**
 * CI systems check out a commit, not a branch, and name the branch in a variable. First set wins:
 * a pull request's own branch before the ref that triggered the run.
 */
export const CI_BRANCH_VARIABLES = [
  'GITHUB_HEAD_REF', // GitHub Actions, pull requests (empty on pushes)
  'GITHUB_REF_NAME', // GitHub Actions, pushes; Gitea and Forgejo Actions set the GITHUB_* variables too
  'FORGEJO_HEAD_REF', // Forgejo Actions' own names
  'FORGEJO_REF_NAME',
  'GITEA_HEAD_REF', // Gitea Actions' own names
  'GITEA_REF_NAME',
  'CI_COMMIT_REF_NAME', // GitLab CI
  'BITBUCKET_BRANCH', // Bitbucket Pipelines
  'BRANCH', // anything else: set it yourself
] as const;

export const FALLBACK_BRANCH = 'main';

export interface BranchDefault {
  branch: string;
  /** Where the branch came from, told to the user: `GITHUB_REF_NAME`, `git`, or `default`. */
  source: string;
}

/** The branch to deploy when none is given: the CI's, else the checked-out one, else main. */
export async function defaultBranch(
  env: Record<string, string | undefined>,
  gitBranch: () => Promise<string | null>,
): Promise<BranchDefault> {
  for (const variable of CI_BRANCH_VARIABLES) {
    const value = env[variable]?.trim();
    if (value) return { branch: value, source: variable };
  }
  const checkedOut = await gitBranch();
  if (checkedOut) return { branch: checkedOut, source: 'git' };
  return { branch: FALLBACK_BRANCH, source: 'default' };
}

/** The release name when none is given: the commit it was built from, else when it was uploaded. */
export async function defaultReleaseName(gitCommit: () => Promise<string | null>, now: Date): Promise<string> {
  const commit = await gitCommit();
  if (commit) return commit.slice(0, MAX_TEXT_LENGTH);
  return `Upload of ${now.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}
