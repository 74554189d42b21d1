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

export const createDeployBody = z.object({
  name,
  branches: branchNames,
  files: z.array(manifestEntry).min(1, 'The release has no files').max(100_000, 'At most 100000 files'),
});

export const deploy = z.object({
  _id: z.string(),
  /** Hashes the server does not have yet: upload these, then finalise. */
  missing: z.array(sha256),
  expiresAt: timestamp,
});
export type Deploy = z.infer<typeof deploy>;
