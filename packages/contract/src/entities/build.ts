import { z } from 'zod';
import { requiredText } from '../validation.ts';
import { timestamp } from './common.ts';
import { releaseSource } from './release.ts';
import { BRANCH_PATTERN } from './repository.ts';

/** Where a build is: waiting for a builder, running, or finished one of three ways. */
export const BUILD_STATES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export type BuildState = (typeof BUILD_STATES)[number];

/** The steps of a build, in order; a build shows each with its state and duration. */
export const BUILD_PHASES = ['clone', 'restoreCache', 'install', 'build', 'upload', 'saveCache'] as const;
export type BuildPhaseName = (typeof BUILD_PHASES)[number];

/** What queued a build: someone in the console or the API, a build hook, a forge's push or pull request, a retry. */
export const BUILD_TRIGGERS = ['manual', 'hook', 'push', 'pullRequest', 'retry'] as const;
export type BuildTrigger = (typeof BUILD_TRIGGERS)[number];

export const buildPhase = z.object({
  name: z.enum(BUILD_PHASES),
  state: z.enum(['running', 'succeeded', 'failed', 'skipped']),
  startedAt: timestamp,
  /** Null while it runs. */
  durationMs: z.number().int().nullable(),
});
export type BuildPhase = z.infer<typeof buildPhase>;

export const build = z.object({
  _id: z.string(),
  siteId: z.string(),
  /** The git branch built. */
  gitBranch: z.string(),
  /** The Wharf branch its release goes to: the site's main branch for the production branch. */
  branch: z.string(),
  /** The commit built (known once cloned), its message, author and pull request. */
  source: releaseSource,
  trigger: z.enum(BUILD_TRIGGERS),
  /** Who queued it (a user's name, a build hook's), null when a forge did. */
  triggeredBy: z.string().nullable(),
  state: z.enum(BUILD_STATES),
  phases: z.array(buildPhase),
  /** Why it failed or was cancelled, in a sentence; null otherwise. */
  error: z.string().nullable(),
  /** The release it made; null until it succeeds. */
  releaseId: z.string().nullable(),
  /** The build this one retries. */
  retryOf: z.string().nullable(),
  image: z.string(),
  createdAt: timestamp,
  startedAt: timestamp.nullable(),
  finishedAt: timestamp.nullable(),
});
export type Build = z.infer<typeof build>;

export const buildLogLine = z.object({ seq: z.number().int(), at: timestamp, text: z.string() });
export type BuildLogLine = z.infer<typeof buildLogLine>;

/** Lines of a build's log after `after`; `finished` once the build has ended and every line is given. */
export const buildLog = z.object({ lines: z.array(buildLogLine), finished: z.boolean() });
export type BuildLog = z.infer<typeof buildLog>;

const gitBranch = requiredText(200).regex(BRANCH_PATTERN, 'Must be a branch name');

/** Build a branch now; without one, the production branch. */
export const startBuildBody = z.object({ gitBranch: gitBranch.optional() });

/** A secret address that builds a branch when called (from a CMS, a schedule, another system). */
export const buildHook = z.object({
  _id: z.string(),
  name: z.string(),
  gitBranch: z.string(),
  createdAt: timestamp,
  lastUsedAt: timestamp.nullable(),
});
export type BuildHook = z.infer<typeof buildHook>;

/** A new build hook, with its address: shown this once, as a token is. */
export const createdBuildHook = buildHook.extend({ url: z.string() });
export type CreatedBuildHook = z.infer<typeof createdBuildHook>;

export const buildHookBody = z.object({ name: requiredText(100), gitBranch });

/** What a build hook's call answers: the build it queued. */
export const buildHookCall = z.object({ buildId: z.string() });

/** Where a build variable applies: every build, the production branch's, the others' (previews), or one branch's. */
export const BUILD_VARIABLE_CONTEXTS = ['all', 'production', 'previews', 'branch'] as const;
export type BuildVariableContext = (typeof BUILD_VARIABLE_CONTEXTS)[number];

/**
 * The names Wharf sets in every build itself (where package managers keep their cache, `CI`), and
 * its own prefix: a variable of the site may not take them.
 */
export const RESERVED_BUILD_VARIABLES = [
  'HOME',
  'CI',
  'npm_config_cache',
  'YARN_CACHE_FOLDER',
  'pnpm_config_store_dir',
];

const variableName = requiredText(128)
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'Must be letters, digits and underscores, not starting with a digit')
  .refine((key) => !RESERVED_BUILD_VARIABLES.includes(key) && !key.toUpperCase().startsWith('WHARF_'), {
    message: 'Is set by Wharf itself',
  });

/** A variable of the site's builds; a secret's value is never answered (null), only replaced. */
export const buildVariable = z.object({
  _id: z.string(),
  key: z.string(),
  context: z.enum(BUILD_VARIABLE_CONTEXTS),
  /** The git branch of a `branch` variable; null otherwise. */
  gitBranch: z.string().nullable(),
  secret: z.boolean(),
  value: z.string().nullable(),
  updatedAt: timestamp,
});
export type BuildVariable = z.infer<typeof buildVariable>;

const contextFields = {
  context: z.enum(BUILD_VARIABLE_CONTEXTS, { error: 'Must be all, production, previews or branch' }),
  gitBranch: gitBranch.nullable().default(null),
};
const needsBranch = (body: { context: BuildVariableContext; gitBranch: string | null }) =>
  (body.context === 'branch') === (body.gitBranch !== null);
const branchProblem = { path: ['gitBranch'], message: 'A branch variable names its branch, and only it does' };

export const buildVariableBody = z
  .object({ key: variableName, value: z.string().max(65_536), secret: z.boolean().default(false), ...contextFields })
  .refine(needsBranch, branchProblem);
export type BuildVariableBody = z.input<typeof buildVariableBody>;

/** A change of a variable: a secret keeps its value unless a new one is given. */
export const buildVariableUpdate = z
  .object({ value: z.string().max(65_536).optional(), secret: z.boolean().optional(), ...contextFields })
  .refine(needsBranch, branchProblem);
