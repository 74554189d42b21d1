// What a client needs to make a deploy's manifest and its options, without a schema library: the
// CLI's upload path loads none (see upload.ts). The schemas in entities/deploy.ts build on these.

/** A file of a release: its path (relative, `/`-separated), sha256 in hex and size in bytes. */
export interface ManifestEntry {
  path: string;
  hash: string;
  size: number;
}

/** Characters of each file's sha256 the base listing gives: enough to tell a changed file, and a quarter of the bytes. */
export const BASE_HASH_PREFIX = 16;

/**
 * The text whose sha256 is a manifest's digest: its entries sorted by path (UTF-16 code units, as
 * JavaScript sorts), each as path, hash and size separated by NUL and ended by a newline. Client
 * and server hash it alike, each with its own crypto: this package also runs in browsers.
 */
export function manifestDigestText(files: ManifestEntry[]): string {
  const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return sorted.map((file) => `${file.path}\0${file.hash}\0${file.size}\n`).join('');
}

const EXPIRY_UNITS_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const MAX_EXPIRY_MS = 365 * EXPIRY_UNITS_MS.d;

/** How long an expiry such as `14d`, `12h` or `30m` lasts, in milliseconds. */
export function expiryMs(expiry: string) {
  const unit = expiry.slice(-1) as keyof typeof EXPIRY_UNITS_MS;
  return Number(expiry.slice(0, -1)) * EXPIRY_UNITS_MS[unit];
}

/** A branch expiry: minutes, hours or days, at most a year. */
export const BRANCH_EXPIRY = {
  pattern: /^[1-9][0-9]{0,5}[mhd]$/,
  notADuration: 'Must be a duration such as 30m, 12h or 14d',
  isWithinAYear: (expiry: string) => expiryMs(expiry) <= MAX_EXPIRY_MS,
  overAYear: 'Must be at most 365d',
} as const;

/** What is wrong with a branch expiry, or null when nothing is. */
export function branchExpiryProblem(expiry: string): string | null {
  if (!BRANCH_EXPIRY.pattern.test(expiry)) return BRANCH_EXPIRY.notADuration;
  if (!BRANCH_EXPIRY.isWithinAYear(expiry)) return BRANCH_EXPIRY.overAYear;
  return null;
}
