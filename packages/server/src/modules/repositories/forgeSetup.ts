import type { CodeHostRepository } from '@wharf/contract';

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

/**
 * Whether the code host's repository is the one a site builds from: its HTTPS or its SSH address
 * names the same host and path as the site's URL (whichever form the site was connected with).
 */
export function isRepositoryOf(siteUrl: string, repository: CodeHostRepository) {
  const site = whereItPoints(siteUrl);
  return site !== null && [repository.httpsUrl, repository.sshUrl].some((url) => whereItPoints(url) === site);
}
