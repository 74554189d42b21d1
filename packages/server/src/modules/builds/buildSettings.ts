import { z } from 'zod';
import type { BuildSettings } from '../../config/types.ts';
import { privateAllowListSetting } from '../../outbound/privateAllowList.ts';

const count = (what: string, fallback: number) =>
  z.coerce
    .number({ error: `must be a whole number of ${what}` })
    .int(`must be a whole number of ${what}`)
    .min(1, 'must be 1 or more')
    .default(fallback);

/** The variables of building from a repository; README.md ("Builds") documents them. */
export const buildEnvironment = z.object({
  WHARF_BUILD_RUNTIME: z
    .string()
    .regex(/^(?:\/[^\s]+\/)?(?:podman|docker)$/, 'must be podman or docker, or a path to either')
    .optional(),
  WHARF_BUILD_NETWORK: z
    .string()
    .regex(/^(?:none|slirp4netns|pasta|bridge)$/, 'must be none, slirp4netns, pasta or bridge')
    .optional(),
  WHARF_BUILD_IMAGES: z.string().default('node:*'),
  WHARF_BUILD_PULL: z
    .enum(['missing', 'never', 'always'], { error: 'must be missing, never or always' })
    .default('missing'),
  WHARF_BUILD_CPUS: z.coerce.number({ error: 'must be a number of CPUs' }).positive('must be more than 0').default(1),
  WHARF_BUILD_MEMORY: z
    .string()
    .regex(/^\d+[kmg]$/i, 'must be an amount such as 512m or 2g')
    .default('2g'),
  WHARF_BUILD_PIDS: count('processes', 512),
  WHARF_BUILD_TIMEOUT_MINUTES: z.coerce.number({ error: 'must be a number of minutes' }).positive().default(15),
  WHARF_BUILD_CONCURRENCY: count('builds', 1),
  WHARF_BUILD_SLOTS: count('builds', 2),
  WHARF_BUILD_ALLOWED_PRIVATE: privateAllowListSetting('WHARF_BUILD_ALLOWED_PRIVATE'),
});

type BuildEnvironment = z.infer<typeof buildEnvironment>;

/** Docker's rule for a reference without a registry: `node:24` is `docker.io/library/node:24`. */
export function qualifiedImage(image: string): string {
  const [first, ...rest] = image.split('/');
  const hasRegistry = rest.length > 0 && (first!.includes('.') || first!.includes(':') || first === 'localhost');
  if (hasRegistry) return image;
  return rest.length === 0 ? `docker.io/library/${image}` : `docker.io/${image}`;
}

/** Whether an image may be built with: each allow-list entry is a reference where `*` stands for any run of characters. */
export function imageAllowed(settings: Pick<BuildSettings, 'images'>, image: string): boolean {
  const wanted = qualifiedImage(image);
  return settings.images.some((pattern) => {
    const expression = qualifiedImage(pattern)
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*');
    return new RegExp(`^${expression}$`).test(wanted);
  });
}

/**
 * Builds are off until the operator names a container runtime; then its limits. A network is
 * the runtime's user-mode one by default (podman: slirp4netns, which cannot reach the host's own
 * addresses), Docker's bridge for Docker.
 */
export function buildSettings(e: BuildEnvironment): BuildSettings | null {
  if (!e.WHARF_BUILD_RUNTIME) return null;
  const docker = e.WHARF_BUILD_RUNTIME.endsWith('docker');
  return {
    runtime: e.WHARF_BUILD_RUNTIME,
    network: e.WHARF_BUILD_NETWORK ?? (docker ? 'bridge' : 'slirp4netns'),
    images: e.WHARF_BUILD_IMAGES.split(',')
      .map((entry) => entry.trim())
      .filter(Boolean),
    pull: e.WHARF_BUILD_PULL,
    cpus: e.WHARF_BUILD_CPUS,
    memory: e.WHARF_BUILD_MEMORY.toLowerCase(),
    pids: e.WHARF_BUILD_PIDS,
    timeoutMs: e.WHARF_BUILD_TIMEOUT_MINUTES * 60_000,
    orgConcurrency: e.WHARF_BUILD_CONCURRENCY,
    slots: e.WHARF_BUILD_SLOTS,
    allowedPrivate: e.WHARF_BUILD_ALLOWED_PRIVATE,
  };
}
