import { z } from 'zod';
import { name, requiredText } from '../validation.ts';
import { timestamp } from './common.ts';

export const sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'Must be a sha256 in hex');

/** Path of a file inside a release: relative, `/`-separated, no `.` or `..` segments. */
export const releasePath = requiredText(1024).refine(
  (path) => !path.startsWith('/') && !path.split('/').some((part) => part === '' || part === '.' || part === '..'),
  'Must be a relative path without . or .. segments',
);

export const manifestEntry = z.object({ path: releasePath, hash: sha256, size: z.number().int().min(0) });
export type ManifestEntry = z.infer<typeof manifestEntry>;

export const branchNames = z.array(name).max(20, 'At most 20 branches');

const EXPIRY_UNITS_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const MAX_EXPIRY_MS = 365 * EXPIRY_UNITS_MS.d;

/** How long an expiry such as `14d`, `12h` or `30m` lasts, in milliseconds. */
export function expiryMs(expiry: string) {
  const unit = expiry.slice(-1) as keyof typeof EXPIRY_UNITS_MS;
  return Number(expiry.slice(0, -1)) * EXPIRY_UNITS_MS[unit];
}

/**
 * How long after this upload its branches are deleted by themselves (a preview's life): minutes,
 * hours or days, at most a year. An upload without it clears the expiry of its branches.
 */
export const branchExpiry = z
  .string()
  .regex(/^[1-9][0-9]{0,5}[mhd]$/, 'Must be a duration such as 30m, 12h or 14d')
  .refine((value) => expiryMs(value) <= MAX_EXPIRY_MS, 'Must be at most 365d');

export const createDeployBody = z.object({
  name,
  branches: branchNames,
  expires: branchExpiry.optional(),
  /** Make a new release even when the files equal those of the release the branches serve. */
  force: z.boolean().optional(),
  files: z.array(manifestEntry).min(1, 'The release has no files').max(100_000, 'At most 100000 files'),
});

export const deploy = z.object({
  _id: z.string(),
  /** Hashes the server does not have yet: upload these, then finalise. */
  missing: z.array(sha256),
  expiresAt: timestamp,
});
export type Deploy = z.infer<typeof deploy>;
