import type { ClusterSettings } from './config/types.ts';

const ROLE_NAMES = ['all', 'api', 'edge', 'worker', 'builder'] as const;

/**
 * `WHARF_ROLE` (`all`, or a comma list of `api`, `edge`, `worker` and `builder`), `REDIS_URL` and
 * `WHARF_NODE_NAME`. Answers the settings, or the problems, each naming its variable.
 */
export function clusterSettings(env: { WHARF_ROLE?: string; REDIS_URL?: string; WHARF_NODE_NAME?: string }): {
  settings: ClusterSettings;
  problems: string[];
} {
  const problems: string[] = [];
  const names = (env.WHARF_ROLE ?? 'all').split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !(ROLE_NAMES as readonly string[]).includes(name));
  if (unknown.length > 0 || names.length === 0)
    problems.push(
      `WHARF_ROLE must be all, or a comma list of api, edge, worker and builder (not ${unknown.join(', ')})`,
    );
  const all = names.includes('all');
  const roles = {
    api: all || names.includes('api'),
    edge: all || names.includes('edge'),
    worker: all || names.includes('worker'),
    builder: all || names.includes('builder'),
  };
  const redisUrl = env.REDIS_URL ?? null;
  if (redisUrl && !/^rediss?:\/\/[^\s]+$/.test(redisUrl))
    problems.push('REDIS_URL must be a redis:// or rediss:// URL');
  if (env.WHARF_NODE_NAME !== undefined && !/^[A-Za-z0-9._-]{1,64}$/.test(env.WHARF_NODE_NAME))
    problems.push('WHARF_NODE_NAME must be 1 to 64 letters, digits, dots, dashes or underscores');
  return { settings: { roles, redisUrl, nodeName: env.WHARF_NODE_NAME ?? null }, problems };
}
