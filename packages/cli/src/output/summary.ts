import { formatBytes, plural } from '../lib/bytes.ts';
import type { UploadOutcome } from '../release/outcome.ts';

/** The lines a person reads at the end: what went live, and where. */
export function summaryText(outcome: UploadOutcome, durationMs: number): string {
  const { release, uploaded } = outcome;
  const seconds = (durationMs / 1000).toFixed(1);
  const head = `Release "${release.name}" is live: ${plural(release.fileCount, 'file')}, ${formatBytes(release.size)}; sent ${plural(uploaded.files, 'file')} (${formatBytes(uploaded.bytes)}) in ${seconds} s`;
  const width = Math.max(...release.deployedBranches.map((branch) => branch.name.length));
  const branches = release.deployedBranches.map((branch) => `  ${branch.name.padEnd(width)}  ${branch.url}`);
  return `${[head, ...branches].join('\n')}\n`;
}

/** The result for scripts: one JSON object, stable keys. */
export function summaryJson(outcome: UploadOutcome, durationMs: number): string {
  const { release } = outcome;
  return `${JSON.stringify({
    ok: true,
    release: { _id: release._id, name: release.name, fileCount: release.fileCount, size: release.size },
    branches: release.deployedBranches.map((branch) => ({ _id: branch._id, name: branch.name, url: branch.url })),
    method: outcome.method,
    uploaded: outcome.uploaded,
    sentBytes: outcome.sentBytes,
    durationMs,
  })}\n`;
}

export function failureJson(exitCode: number, message: string): string {
  return `${JSON.stringify({ ok: false, exitCode, error: message })}\n`;
}
