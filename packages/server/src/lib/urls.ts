import type { Config } from '../config.ts';

/**
 * The URL a branch is served at: `{branch slug}.{site}.{sites host}`, or `{site}.{sites host}`
 * for the main branch (design.md 'Running').
 */
export function branchUrl(config: Config, siteName: string, branchSlug: string | null): string {
  const base = config.sitesUrl;
  const host = [branchSlug, siteName, base.host].filter(Boolean).join('.');
  return `${base.protocol}//${host}/`;
}

/** A branch name made safe for a host name label: `feature/login` → `feature-login`. */
export function slugOf(name: string): string {
  const slug = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 50)
    .replace(/-+$/, '');
  return slug || 'branch';
}
