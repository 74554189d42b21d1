import { z } from 'zod';
import { timestamp } from './common.ts';

/** The code hosts people sign in with that also keep repositories. */
export const CODE_HOSTS = ['github', 'gitlab', 'gitea'] as const;
export type CodeHost = (typeof CODE_HOSTS)[number];

/** A code host this installation signs in with, and what the signed-in user's account there allows. */
export const codeHostAccount = z.object({
  provider: z.enum(CODE_HOSTS),
  /** Where the code host is served (`https://github.com`, a GitLab of one's own): the host of its repositories. */
  url: z.string(),
  /** The user's account at this code host, or null when none is connected. */
  login: z.string().nullable(),
  /** Whether Wharf may list that account's repositories and set up a site's webhook and deploy key in one. */
  repositoryAccess: z.boolean(),
  repositoryAccessAt: timestamp.nullable(),
});
export type CodeHostAccount = z.infer<typeof codeHostAccount>;

/** A repository the account may read, as its code host lists it. */
export const codeHostRepository = z.object({
  /** `owner/name`, or a GitLab project's whole path (`group/subgroup/project`). */
  fullName: z.string(),
  httpsUrl: z.string(),
  sshUrl: z.string(),
  webUrl: z.string(),
  defaultBranch: z.string(),
  private: z.boolean(),
  /** Whether the account may add webhooks and deploy keys to it (admin; a GitLab maintainer). */
  canSetUp: z.boolean(),
  pushedAt: timestamp.nullable(),
});
export type CodeHostRepository = z.infer<typeof codeHostRepository>;

export const codeHostRepositories = z.object({
  repositories: z.array(codeHostRepository),
  /** The account has more than Wharf reads (1,000): the last pushed ones are missing. */
  truncated: z.boolean(),
});

export const codeHostParams = z.object({ provider: z.enum(CODE_HOSTS, { error: 'Must be github, gitlab or gitea' }) });

/** Set up a connected repository at its code host with the signed-in user's account there. */
export const forgeSetupBody = z.object({
  provider: z.enum(CODE_HOSTS, { error: 'Must be github, gitlab or gitea' }),
  /** The repository as the code host lists it (`fullName`); it must be the one the site builds from. */
  repository: z.string().min(1).max(300),
});

/** Where a git URL points, as `host/path` without `.git` or slashes at the ends, in lowercase. */
function whereItPoints(url: string): string | null {
  const scpLike = /^[^@/\s]+@([^:/\s]+):(.+)$/.exec(url);
  const parsed = scpLike ? null : URL.parse(url);
  const host = scpLike?.[1] ?? parsed?.hostname;
  const path = scpLike?.[2] ?? parsed?.pathname;
  if (!host || !path) return null;
  const trimmed = path.replace(/^\/+|\/+$/g, '').replace(/\.git$/, '');
  return `${host}/${trimmed}`.toLowerCase();
}

/** The host name a git URL or a code host's address names, in lowercase; null when it names none. */
export function gitHostOf(url: string): string | null {
  return whereItPoints(url)?.split('/')[0] ?? null;
}

/**
 * Whether the code host's repository is the one a site builds from: its HTTPS or its SSH address
 * names the same host and path as the site's URL (whichever form the site was connected with).
 */
export function isRepositoryOf(siteUrl: string, repository: CodeHostRepository) {
  const site = whereItPoints(siteUrl);
  return site !== null && [repository.httpsUrl, repository.sshUrl].some((url) => whereItPoints(url) === site);
}
