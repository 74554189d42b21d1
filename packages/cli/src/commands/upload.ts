import path from 'node:path';
import { explainFailure } from '../api/explainFailure.ts';
import { wharfApi } from '../api/wharfApi.ts';
import type { CliContext } from '../context.ts';
import { hashCacheDir } from '../folder/hashCache.ts';
import { readFolder } from '../folder/readFolder.ts';
import { uploadHelp } from '../help.ts';
import { lineProgress, type Progress, quietProgress, terminalProgress } from '../output/progress.ts';
import { summaryJson, summaryText } from '../output/summary.ts';
import { postCommitStatus, STATUS_CONTEXT } from '../release/commitStatus.ts';
import { defaultBranch, defaultReleaseName } from '../release/defaults.ts';
import { deployFiles } from '../release/deployFiles.ts';
import { gitBranch, gitCommit } from '../release/git.ts';
import type { ReleaseTarget, UploadOutcome } from '../release/outcome.ts';
import { type PullRequest, pullRequestOf } from '../release/pullRequest.ts';
import { parseUploadArguments, type UploadArguments } from './uploadArguments.ts';

function progressFor(context: CliContext, json: boolean): Progress {
  if (json) return quietProgress(context.stderr);
  // CI runners that fake a terminal still keep a log: lines read better there than a redrawn bar.
  if (context.stderr.isTTY && !context.env.CI) return terminalProgress(context.stderr);
  return lineProgress(context.stderr);
}

/** The release's name and branches, from the arguments or else from the pull request, CI variables and git. */
async function releaseTarget(
  args: UploadArguments,
  folder: string,
  context: CliContext,
  progress: Progress,
  pullRequest: PullRequest | null,
) {
  // git runs in the folder: a build folder inside a repository names that repository's commit.
  const name = args.release ?? (await defaultReleaseName(() => gitCommit(folder), context.now()));
  let branches = args.branches;
  let from = '';
  if (branches.length === 0 && pullRequest) {
    branches = [pullRequest.branch];
    from = ` (the preview of ${pullRequest.forge} pull request #${pullRequest.number})`;
  } else if (branches.length === 0) {
    const fallback = await defaultBranch(context.env, () => gitBranch(folder));
    branches = [fallback.branch];
    from = fallback.source === 'default' ? ' (no branch given, none found in CI or git)' : ` (from ${fallback.source})`;
  }
  progress.note(`Release "${name}" for ${branches.join(', ')}${from}, site ${args.siteId} on ${args.url.origin}`);
  return { siteId: args.siteId, name, branches } satisfies ReleaseTarget;
}

/** Tells the pull request where its preview is: a commit status named `wharf`, when the CI gave a token. */
async function reportPreview(pullRequest: PullRequest | null, outcome: UploadOutcome | null, progress: Progress) {
  if (!pullRequest?.status) return undefined;
  const branch = outcome?.release.deployedBranches.find((candidate) => candidate.name === pullRequest.branch);
  const problem = await postCommitStatus(pullRequest.status, {
    state: outcome ? 'success' : 'failure',
    url: branch?.url ?? null,
    description: outcome ? `Preview of release "${outcome.release.name}"` : 'The upload failed',
  });
  if (problem) progress.warn(`Could not post the commit status on ${pullRequest.forge}: ${problem}`);
  else progress.note(`Posted the commit status "${STATUS_CONTEXT}" on ${pullRequest.forge}`);
  return problem === null;
}

/** `wharf upload <folder>`: a new release of the site, served by the branches at the end. */
export async function uploadCommand(argv: string[], context: CliContext): Promise<number> {
  const args = parseUploadArguments(argv, context.env);
  if (args === 'help') {
    context.stdout.write(uploadHelp);
    return 0;
  }
  const startedAt = Date.now();
  const progress = progressFor(context, args.json);
  const folder = path.resolve(context.cwd, args.folder);
  const wharf = wharfApi({ url: args.url, token: args.token, retry: context.retry, onRetry: progress.warn });
  const pullRequest = args.branches.length === 0 ? await pullRequestOf(context.env) : null;
  try {
    const files = await readFolder(folder, progress, hashCacheDir(context.env));
    const target = await releaseTarget(args, folder, context, progress, pullRequest);
    const outcome = await deployFiles(wharf, target, files, progress);
    const statusPosted = await reportPreview(pullRequest, outcome, progress);
    const preview = pullRequest
      ? { pullRequest: pullRequest.number, branch: pullRequest.branch, statusPosted }
      : undefined;
    const durationMs = Date.now() - startedAt;
    context.stdout.write(args.json ? summaryJson(outcome, durationMs, preview) : summaryText(outcome, durationMs));
    return 0;
  } catch (error) {
    await reportPreview(pullRequest, null, progress);
    throw explainFailure(error, { url: args.url, siteId: args.siteId, attempts: context.retry.attempts });
  }
}
