import { z } from 'zod';
import { BRANCH_EXPIRY, type ManifestEntry } from '../deployManifest.ts';
import { id, name, requiredText } from '../validation.ts';
import { timestamp } from './common.ts';
import { releaseSource } from './release.ts';

export const sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'Must be a sha256 in hex');

/** Path of a file inside a release: relative, `/`-separated, no `.` or `..` segments. */
export const releasePath = requiredText(1024).refine(
  (path) => !path.startsWith('/') && !path.split('/').some((part) => part === '' || part === '.' || part === '..'),
  'Must be a relative path without . or .. segments',
);

export const manifestEntry = z.object({
  path: releasePath,
  hash: sha256,
  size: z.number().int().min(0),
}) satisfies z.ZodType<ManifestEntry>;

export const branchNames = z.array(name).max(20, 'At most 20 branches');

/**
 * How long after this upload its branches are deleted by themselves (a preview's life): minutes,
 * hours or days, at most a year. An upload without it clears the expiry of its branches.
 */
export const branchExpiry = z
  .string()
  .regex(BRANCH_EXPIRY.pattern, BRANCH_EXPIRY.notADuration)
  .refine(BRANCH_EXPIRY.isWithinAYear, BRANCH_EXPIRY.overAYear);

/** The release a manifest is relative to, and the digest of the whole manifest it stands for. */
export const deployBaseRef = z.object({ release: id, digest: sha256 });

export const createDeployBody = z
  .object({
    name,
    branches: branchNames,
    expires: branchExpiry.optional(),
    /** Make a new release even when the files equal those of the release the branches serve. */
    force: z.boolean().optional(),
    /** A release no branch serves yet: seen at its own address, published later. */
    draft: z.boolean().optional(),
    /** The commit, pull request and CI run the release was built from. */
    source: releaseSource.optional(),
    /** Every file of the release; with `base`, only those added or changed since that release. */
    files: z.array(manifestEntry).max(100_000, 'At most 100000 files'),
    /**
     * Make the manifest relative to a release of the site (`GET …/deploys/base`): its files, less
     * `removed`, with `files` added or replaced; `digest` (`manifestDigest`) must match the result.
     */
    base: deployBaseRef.optional(),
    /** With `base`: the paths of its files this release no longer has. */
    removed: z.array(releasePath).max(100_000, 'At most 100000 files').optional(),
  })
  .refine((body) => body.base || body.files.length > 0, { path: ['files'], message: 'The release has no files' })
  .refine((body) => !body.draft || body.branches.length === 0, {
    path: ['branches'],
    message: 'A draft goes to no branch; publish it to one later',
  })
  .refine((body) => !body.draft || !body.expires, { path: ['expires'], message: 'A draft has no branches to expire' })
  .refine((body) => body.base || !body.removed, {
    path: ['removed'],
    message: 'Only a manifest with a base removes files',
  });

export const deployBase = z.object({
  /** The content codings the deploy routes take request bodies in (`Content-Encoding`), best first. */
  encodings: z.array(z.string()),
  /** The release the branch serves, as `[path, first characters of its sha256]`; null when it serves none. */
  release: z.object({ _id: z.string(), files: z.array(z.tuple([z.string(), z.string()])) }).nullable(),
});
export type DeployBase = z.infer<typeof deployBase>;

export const deploy = z.object({
  _id: z.string(),
  /** Hashes the server does not have yet: upload these, then finalise. */
  missing: z.array(sha256),
  expiresAt: timestamp,
});
export type Deploy = z.infer<typeof deploy>;
