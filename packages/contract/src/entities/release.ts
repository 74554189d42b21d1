import { z } from 'zod';
import { COMMIT_PATTERN, type ReleaseSource, SOURCE_LIMITS, SOURCE_URL_PATTERN } from '../releaseSource.ts';
import { text } from '../validation.ts';
import { branch } from './branch.ts';
import { timestamp } from './common.ts';
import { form } from './form.ts';

const sourceUrl = text(SOURCE_LIMITS.url).regex(SOURCE_URL_PATTERN, 'Must be an http or https URL');

/** Where a release came from (releaseSource.ts): what the uploader says, checked, never trusted for more. */
export const releaseSource = z.object({
  commit: text(SOURCE_LIMITS.commit).regex(COMMIT_PATTERN, 'Must be a commit SHA in hex').optional(),
  message: text(SOURCE_LIMITS.message).optional(),
  branch: text(SOURCE_LIMITS.branch).optional(),
  author: text(SOURCE_LIMITS.author).optional(),
  commitUrl: sourceUrl.optional(),
  pullRequest: z
    .number()
    .int()
    .min(1)
    .max(2 ** 31)
    .optional(),
  pullRequestUrl: sourceUrl.optional(),
  ci: text(SOURCE_LIMITS.ci).optional(),
  ciRunUrl: sourceUrl.optional(),
}) satisfies z.ZodType<ReleaseSource>;

/** Who uploaded a release, as the server knew them then: a user (signed in or by API token), or a site token. */
export const releaseUploader = z.object({
  kind: z.enum(['user', 'apiToken', 'siteToken']),
  /** The user's name, or the token's at the time of the upload. */
  name: z.string(),
  /** The user's id; null for a site token. */
  userId: z.string().nullable(),
  /** The name of the token it came through (API or site token); null when signed in. */
  tokenName: z.string().nullable(),
});
export type ReleaseUploader = z.infer<typeof releaseUploader>;

/** A line of a release's `_redirects`, `_headers` or `.wharf.yml` that Wharf refused (error) or doubts (warning). */
export const ruleProblem = z.object({
  /** `_redirects`, `_headers`, `.wharf.yml`, or the path of an HTML page whose form could not be taken. */
  file: z.string(),
  line: z.number().int(),
  message: z.string(),
  severity: z.enum(['error', 'warning']),
});
export type RuleProblem = z.infer<typeof ruleProblem>;

export const release = z.object({
  _id: z.string(),
  siteId: z.string(),
  name: z.string(),
  date: timestamp,
  /** Its own label in its permanent address, `{slug}--{site}`: never reused within the site. */
  slug: z.string(),
  /** Where this release is served whatever the branches serve, for as long as it is kept. */
  url: z.string(),
  source: releaseSource,
  /** Null for releases uploaded before Wharf recorded it. */
  uploader: releaseUploader.nullable(),
  /** From the deploy's start to the release, in milliseconds; null when not recorded. */
  uploadMs: z.number().int().nullable(),
  /** Files of the release the organization had not stored before, and their bytes; null when not recorded. */
  newFiles: z.number().int().nullable(),
  newSize: z.number().int().nullable(),
  /** The forms of the site as the branches serving this release see them (for one that none serves: those of every branch). */
  forms: z.array(form),
  /** The branches that point at this release now, and since when (null: from before Wharf kept it). */
  branches: z.array(z.object({ _id: z.string(), name: z.string(), url: z.string(), since: timestamp.nullable() })),
  fileCount: z.number().int(),
  size: z.number().int(),
  /** What is wrong in the release's `_redirects` and `_headers`: the release is stored and served without the refused lines. */
  ruleProblems: z.array(ruleProblem),
  /** Whether its own address asks for a password of its own (else it asks for the site's, if any). */
  hasPassword: z.boolean(),
});
export type Release = z.infer<typeof release>;

/** A deploy that ended without a release: refused, cut off, out of disk, or abandoned until it expired. */
export const failedDeploy = z.object({
  _id: z.string(),
  siteId: z.string(),
  /** Empty when it failed before its name arrived. */
  name: z.string(),
  branches: z.array(z.string()),
  source: releaseSource,
  uploader: releaseUploader.nullable(),
  /** The stable error code its caller got; `DEPLOY_EXPIRED` for one abandoned before it was finalised. */
  code: z.string(),
  message: z.string(),
  /** What it did, line by line, ending with why it stopped. */
  log: z.array(z.string()),
  startedAt: timestamp,
  failedAt: timestamp,
});
export type FailedDeploy = z.infer<typeof failedDeploy>;

/** A file of a release, as its page lists them: its path, size, content hash and the encodings kept of it. */
export const releaseFile = z.object({
  path: z.string(),
  size: z.number().int(),
  hash: z.string(),
  /** Precompressed forms the edge serves besides the file itself (`br`, `gzip`); empty while they are made or when not worth it. */
  encodings: z.array(z.enum(['br', 'gzip'])),
});
export type ReleaseFile = z.infer<typeof releaseFile>;

/** What an upload answers: the release, and the branches now serving it with their URLs. */
export const deployedRelease = release.extend({
  deployedBranches: z.array(branch),
  unchanged: z
    .boolean()
    .describe(
      'True when the upload made no release: its files equal those of the release its branches already serve, which is this one (send force to make one anyway)',
    ),
});
export type DeployedRelease = z.infer<typeof deployedRelease>;
