// Where a release came from, as the CLI reads it from a CI job's variables and flags. Zod-free:
// the CLI's upload path builds and checks it without a schema library (see upload.ts); the
// schema in entities/release.ts holds the server to the same limits.

/** The commit, branch, pull request and CI run a release was built from; every field is optional. */
export interface ReleaseSource {
  /** The commit's full SHA (or as much of it as the CI gives). */
  commit?: string;
  /** The commit's message, its first lines. */
  message?: string;
  /** The git branch the commit was built on (not the Wharf branch it deploys to). */
  branch?: string;
  /** Who made the commit: a name, an email, or a forge login. */
  author?: string;
  /** The commit's page on its forge. */
  commitUrl?: string;
  pullRequest?: number;
  pullRequestUrl?: string;
  /** The CI system's name: `GitHub Actions`, `GitLab CI`, … */
  ci?: string;
  /** The CI run (job, pipeline or build) that uploaded the release. */
  ciRunUrl?: string;
}

export const SOURCE_LIMITS = {
  commit: 64,
  message: 2000,
  branch: 255,
  author: 255,
  ci: 100,
  url: 2000,
} as const;

/** The source's fields that are links: only http(s) ones are kept, for the console shows them as links. */
export const SOURCE_URL_FIELDS = ['commitUrl', 'pullRequestUrl', 'ciRunUrl'] as const;

/** A link the console may show: absolute http or https, visible ASCII only (a forge percent-encodes the rest). */
export const SOURCE_URL_PATTERN = /^https?:\/\/[\x21-\x7e]+$/i;

/** A commit SHA: hexadecimal, 7 to 64 characters. */
export const COMMIT_PATTERN = /^[0-9a-f]{7,64}$/i;
