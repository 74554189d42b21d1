import type { RuleProblem } from '@wharf/contract';
import { formatBytes, plural } from '../lib/bytes.ts';
import type { UploadOutcome } from '../release/outcome.ts';

/** The lines a person reads at the end: what went live, and where. */
export function summaryText(outcome: UploadOutcome, durationMs: number): string {
  const { release, uploaded } = outcome;
  const seconds = (durationMs / 1000).toFixed(1);
  const sent = `sent ${plural(uploaded.files, 'file')} (${formatBytes(uploaded.bytes)}) in ${seconds} s`;
  // A CI job run again: the branches already serve these very files, and no release was made.
  const files = `${plural(release.fileCount, 'file')}, ${formatBytes(release.size)}`;
  const head = release.unchanged
    ? `Release "${release.name}" unchanged: the branches already serve these ${plural(release.fileCount, 'file')} (${formatBytes(release.size)}); no new release (--force makes one); ${sent}`
    : release.deployedBranches.length === 0
      ? `Draft "${release.name}" uploaded: ${files}; ${sent}; no branch serves it (wharf publish ${release._id} --branch NAME)`
      : `Release "${release.name}" is live: ${files}; ${sent}`;
  // Its own address first: it serves this release for as long as it is kept, whatever the branches do.
  const rows: [string, string, string][] = [
    ['this release', release.url, ''],
    ...release.deployedBranches.map((branch): [string, string, string] => [
      branch.name,
      branch.url,
      branch.expiresAt ? `  (deleted after ${branch.expiresAt})` : '',
    ]),
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  const lines = rows.map(([label, url, note]) => `  ${label.padEnd(width)}  ${url}${note}`);
  return `${[head, ...lines, ...ruleProblemLines(release.ruleProblems)].join('\n')}\n`;
}

/**
 * What is wrong in the release's `_redirects` and `_headers`, one line each as compilers print
 * them (`file:line: severity: reason`); the release is live without the refused lines.
 */
function ruleProblemLines(problems: RuleProblem[]): string[] {
  if (problems.length === 0) return [];
  const errors = problems.filter((problem) => problem.severity === 'error').length;
  const warnings = problems.length - errors;
  const counts = [errors && plural(errors, 'error'), warnings && plural(warnings, 'warning')].filter(Boolean);
  return [
    `Rules: ${counts.join(' and ')} in _redirects and _headers (lines with errors are left out):`,
    ...problems.map((problem) => `  ${problem.file}:${problem.line}: ${problem.severity}: ${problem.message}`),
  ];
}

/** The result for scripts: one JSON object, stable keys. */
export function summaryJson(
  outcome: UploadOutcome,
  durationMs: number,
  /**
   * The pull request the release previews, and whether its commit status (and, with --comment, its
   * comment) was posted: both absent without a token.
   */
  preview?: { pullRequest: number; branch: string; statusPosted?: boolean; commentPosted?: boolean },
): string {
  const { release } = outcome;
  return `${JSON.stringify({
    ok: true,
    release: {
      _id: release._id,
      name: release.name,
      url: release.url,
      fileCount: release.fileCount,
      size: release.size,
    },
    draft: release.deployedBranches.length === 0 && !release.unchanged,
    unchanged: release.unchanged,
    ruleProblems: release.ruleProblems,
    branches: release.deployedBranches.map((branch) => ({
      _id: branch._id,
      name: branch.name,
      url: branch.url,
      expiresAt: branch.expiresAt,
    })),
    method: outcome.method,
    uploaded: outcome.uploaded,
    sentBytes: outcome.sentBytes,
    durationMs,
    ...(preview ? { preview } : {}),
  })}\n`;
}

export function failureJson(exitCode: number, message: string): string {
  return `${JSON.stringify({ ok: false, exitCode, error: message })}\n`;
}
