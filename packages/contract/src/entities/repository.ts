import { z } from 'zod';
import { bool, requiredText, text } from '../validation.ts';
import { timestamp } from './common.ts';

/**
 * Why a git URL cannot be connected, or null when it can: `https://host/path`,
 * `ssh://[user@]host[:port]/path` or `user@host:path`, and nothing else — no credentials in it (a
 * token belongs in a secret, not in a URL every reader of the settings sees), no `file://`, `ext::`
 * or other transport that would run a command or read the builder's own disk, never an argument
 * (`-…`) to git.
 */
export function repositoryUrlProblem(url: string): string | null {
  if (/[\s\p{Cc}]/u.test(url)) return 'Must not hold spaces or control characters';
  if (url.startsWith('-')) return 'Must not start with -';
  const scpLike = /^[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:(?!\/)[^\\]+$/.exec(url);
  if (scpLike) return null;
  const parsed = URL.parse(url);
  if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'ssh:'))
    return 'Must be an https://, ssh:// or user@host:path URL';
  if (parsed.password || (parsed.protocol === 'https:' && parsed.username))
    return 'Must not hold a user name, password or token';
  if (!parsed.hostname || parsed.pathname.replace(/\/+$/, '') === '') return 'Must name a host and a repository path';
  return null;
}

/**
 * Why a directory of the repository cannot be used, or null: a path relative to the repository's
 * root (`site`, `apps/docs`), never leaving it. Empty: the root itself.
 */
export function repositoryPathProblem(path: string): string | null {
  if (path === '') return null;
  if (/[\p{Cc}\\]/u.test(path)) return 'Must not hold backslashes or control characters';
  if (path.startsWith('/')) return 'Must be relative to the repository root';
  if (path.split('/').some((segment) => segment === '..')) return 'Must stay inside the repository';
  return null;
}

/** `node:24`, `registry.example.com:5000/team/builder:1.2@sha256:…`: an image reference as container engines read it. */
export const IMAGE_PATTERN =
  /^(?:[a-z0-9.-]+(?::\d+)?\/)?[a-z0-9]+(?:[._-][a-z0-9]+)*(?:\/[a-z0-9]+(?:[._-][a-z0-9]+)*)*(?::[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})?(?:@sha256:[0-9a-f]{64})?$/;

/** A branch name as git allows it, or a glob of them (`feature/*`): no spaces, no `..`, never an argument. */
export const BRANCH_PATTERN = /^(?!-)(?!.*\.\.)[^\s\p{Cc}~^:?[\\]+$/u;
const GLOB_PATTERN = /^(?!-)(?!.*\.\.)[^\s\p{Cc}~^:\\]+$/u;

const checked = (problem: (value: string) => string | null, schema: z.ZodString) =>
  schema.superRefine((value, context) => {
    const found = problem(value);
    if (found) context.addIssue({ code: 'custom', message: found });
  });

/** What a site builds from: its repository and how to build it (issue: build on push). */
export const repositoryBody = z.object({
  url: checked(repositoryUrlProblem, requiredText(500)),
  productionBranch: requiredText(200).regex(BRANCH_PATTERN, 'Must be a branch name'),
  baseDirectory: checked(repositoryPathProblem, text(200)).default(''),
  buildCommand: text(1000).default(''),
  publishDirectory: checked(repositoryPathProblem, text(200)).default(''),
  image: requiredText(300).regex(IMAGE_PATTERN, 'Must be an image reference such as node:24').default('node:24'),
  /** Which other branches build: every one, none, or those `branches` matches. */
  branchDeploys: z.enum(['all', 'none', 'listed'], { error: 'Must be all, none or listed' }).default('all'),
  branches: z
    .array(requiredText(200).regex(GLOB_PATTERN, 'Must be a branch name or a pattern such as feature/*'))
    .max(50)
    .default([]),
  /** Whether pull and merge requests build previews at `pr-{number}`. */
  previews: bool.default(true),
  /**
   * Which changed paths make a push build, from the repository root (`docs/**`, `packages/ui/**`,
   * `*.md`: `*` within a folder, `**` across them; a folder means all below it); none: any change
   * under the base directory. A push whose forge lists every changed file and none matches is skipped.
   */
  watchPaths: z
    .array(checked(repositoryPathProblem, requiredText(200)))
    .max(50)
    .default([]),
});
export type RepositoryBody = z.input<typeof repositoryBody>;

/** The SSH key Wharf clones with: its public half, to add as a read-only deploy key at the forge. */
export const deployKey = z.object({
  publicKey: z.string().describe('OpenSSH public key, `ssh-ed25519 …`'),
  fingerprint: z.string().describe('SHA256 fingerprint, as `ssh-keygen -l` prints it'),
  createdAt: timestamp,
});

export const repository = z.object({
  url: z.string(),
  productionBranch: z.string(),
  baseDirectory: z.string(),
  buildCommand: z.string(),
  publishDirectory: z.string(),
  image: z.string(),
  branchDeploys: z.enum(['all', 'none', 'listed']),
  branches: z.array(z.string()),
  previews: z.boolean(),
  watchPaths: z.array(z.string()),
  deployKey,
  /** Where the forge sends its webhooks (push, pull and merge requests), signed with the webhook secret. */
  webhookUrl: z.string(),
  /**
   * The SSH host keys the first clone over SSH learnt (`SHA256:…` fingerprints), and when; later
   * clones insist on them. Null until a clone over SSH, and again once forgotten or the URL changes.
   */
  sshHostKey: z.object({ fingerprints: z.array(z.string()), learntAt: timestamp }).nullable(),
  /** Whether a forge access token is set: builds then report commit statuses and comment on pull requests. */
  forgeToken: z.boolean(),
  /** Why the last report to the forge failed, and when; null once one succeeds. */
  reportError: z.object({ message: z.string(), at: timestamp }).nullable(),
  connectedAt: timestamp,
  updatedAt: timestamp,
});
export type Repository = z.infer<typeof repository>;

/**
 * An access token of the forge that may set commit statuses and comment on pull requests (GitHub:
 * a fine-grained token with Commit statuses and Pull requests write; GitLab: a project token with
 * the api scope, Developer role; Gitea and Forgejo: write:repository and write:issue). Sealed,
 * never answered again.
 */
export const forgeTokenBody = z.object({
  token: requiredText(500).regex(/^[\x21-\x7e]+$/, 'Must be a token: printable characters, no spaces'),
});

/** The secret the forge signs webhook deliveries with: for those who manage the site, to paste at the forge. */
export const webhookSecret = z.object({ secret: z.string() });

/** What a webhook delivery did: the builds it queued, or why it did nothing. */
export const webhookAnswer = z.object({ builds: z.array(z.string()), message: z.string() });

/**
 * The `build` section of `.wharf.yml` in the repository (in the base directory): what it sets wins
 * over the site's settings, as a netlify.toml does, so a change of how the site builds travels
 * with the commit that needs it.
 */
export const buildConfig = z
  .strictObject({
    command: text(1000).optional().describe('The build command, run with sh -c in the base directory'),
    publish: checked(repositoryPathProblem, text(200))
      .optional()
      .describe('The folder the build leaves to publish, relative to the base directory'),
    image: requiredText(300)
      .regex(IMAGE_PATTERN, 'Must be an image reference such as node:24')
      .optional()
      .describe('The container image the build runs in (the installation may allow only some)'),
  })
  .describe('How Wharf builds the site from its repository; read when it builds, ignored in an upload');
export type BuildConfig = z.infer<typeof buildConfig>;
