import path from 'node:path';
import { explainFailure } from '../api/explainFailure.ts';
import { type UploadCalls, uploadCalls } from '../api/uploadCalls.ts';
import type { CliContext } from '../context.ts';
import { hashCacheDir } from '../folder/hashCache.ts';
import { hashFolder, listFolder } from '../folder/readFolder.ts';
import { uploadHelp } from '../help.ts';
import { lineProgress, type Progress, quietProgress, terminalProgress } from '../output/progress.ts';
import { summaryJson, summaryText } from '../output/summary.ts';
import { postCommitStatus, STATUS_CONTEXT } from '../release/commitStatus.ts';
import { defaultBranch, defaultReleaseName } from '../release/defaults.ts';
import { deployFiles } from '../release/deployFiles.ts';
import { gitBranch, gitCommit, gitLastCommit } from '../release/git.ts';
import { deployBaseOf } from '../release/incrementalDeploy.ts';
import type { ReleaseTarget, UploadOutcome } from '../release/outcome.ts';
import { upsertPreviewComment } from '../release/previewComment.ts';
import { type PullRequest, pullRequestOf } from '../release/pullRequest.ts';
import { releaseSource } from '../release/source.ts';
import { parseUploadArguments, type UploadArguments } from './uploadArguments.ts';

function progressFor(context: CliContext, json: boolean): Progress {
  if (json) return quietProgress(context.stderr);
  // CI runners that fake a terminal still keep a log: lines read better there than a redrawn bar.
  if (context.stderr.isTTY && !context.env.CI) return terminalProgress(context.stderr);
  return lineProgress(context.stderr);
}

interface FoundTarget {
  target: ReleaseTarget;
  /** What the log says of it, written once the folder is read (both are found at the same time). */
  notes: string[];
}

/** The release's name and branches, from the arguments or else from the pull request, CI variables and git. */
async function releaseTarget(
  args: UploadArguments,
  folder: string,
  context: CliContext,
  pullRequest: PullRequest | null,
): Promise<FoundTarget> {
  // git runs in the folder: a build folder inside a repository names that repository's commit.
  const name = args.release ?? (await defaultReleaseName(() => gitCommit(folder), context.now()));
  const source = await releaseSource(context.env, args.source, () => gitLastCommit(folder));
  const site = `site ${args.siteId} on ${args.url.origin}`;
  const common = { siteId: args.siteId, name, expires: args.expires, force: args.force, draft: args.draft, source };
  if (args.draft) {
    return { target: { ...common, branches: [] }, notes: [`Draft release "${name}" for no branch, ${site}`] };
  }
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
  const notes = [`Release "${name}" for ${branches.join(', ')}${from}, ${site}`];
  if (args.expires) notes.push(`The branches expire ${args.expires} after this upload`);
  return { target: { ...common, branches }, notes };
}

interface UploadSetUp {
  wharf: UploadCalls;
  progress: Progress;
  pullRequest: PullRequest | null;
}

/**
 * The folder's files, the release's target and what the server offers the deploy (the release
 * the branch serves), found side by side: git and the server answer while the files are read.
 * A missing or empty folder is refused before anything else is asked.
 */
async function prepareUpload(args: UploadArguments, folder: string, context: CliContext, setUp: UploadSetUp) {
  const entries = await listFolder(folder);
  const found = releaseTarget(args, folder, context, setUp.pullRequest);
  const offered = found.then(({ target }) => deployBaseOf(setUp.wharf, target));
  // Awaited once the files are read: a file that cannot be read is the failure the user hears.
  offered.catch(() => {});
  const [read, { target, notes }] = await Promise.all([
    hashFolder(folder, entries, setUp.progress, hashCacheDir(context.env)),
    found,
  ]);
  for (const note of notes) setUp.progress.note(note);
  return { ...read, target, offered };
}

/** What the commit status and the comment say about the preview. */
function previewNews(outcome: UploadOutcome | null, url: string | null, sha: string) {
  if (!outcome) {
    return {
      status: 'The upload failed',
      comment: `**Wharf preview**: the upload of commit \`${sha.slice(0, 12)}\` failed; the CI job's log says why.`,
    };
  }
  const release = outcome.release.name;
  return {
    status: `Preview of release "${release}"`,
    comment: `**Wharf preview** of commit \`${sha.slice(0, 12)}\` (release "${release}"): ${url ?? 'no address'}`,
  };
}

/**
 * Tells the pull request where its preview is, when the CI gave a token: a commit status named
 * `wharf`, and with --comment a comment edited in place. Answers what was posted, for --json.
 */
async function reportPreview(
  pullRequest: PullRequest | null,
  outcome: UploadOutcome | null,
  comment: boolean,
  progress: Progress,
) {
  if (!pullRequest?.status) return {};
  const branch = outcome?.release.deployedBranches.find((candidate) => candidate.name === pullRequest.branch);
  const url = branch?.url ?? null;
  const news = previewNews(outcome, url, pullRequest.status.sha);
  const problem = await postCommitStatus(pullRequest.status, {
    state: outcome ? 'success' : 'failure',
    url,
    description: news.status,
  });
  if (problem) progress.warn(`Could not post the commit status on ${pullRequest.forge}: ${problem}`);
  else progress.note(`Posted the commit status "${STATUS_CONTEXT}" on ${pullRequest.forge}`);
  if (!comment) return { statusPosted: problem === null };
  const refused = await upsertPreviewComment(pullRequest.status, pullRequest.number, news.comment);
  if (refused) progress.warn(`Could not write the preview comment on ${pullRequest.forge}: ${refused}`);
  else progress.note(`Wrote the preview's address in a comment on pull request #${pullRequest.number}`);
  return { statusPosted: problem === null, commentPosted: refused === null };
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
  const wharf = uploadCalls({ url: args.url, token: args.token, retry: context.retry, onRetry: progress.warn });
  const pullRequest = args.branches.length === 0 && !args.draft ? await pullRequestOf(context.env) : null;
  try {
    const { files, saveCache, target, offered } = await prepareUpload(args, folder, context, {
      wharf,
      progress,
      pullRequest,
    });
    // The hashes are written down while the server takes the manifest (saving never fails).
    const saved = new Promise(setImmediate).then(saveCache);
    const outcome = await deployFiles(wharf, target, files, progress, offered).finally(() => saved);
    const posted = await reportPreview(pullRequest, outcome, args.comment, progress);
    const preview = pullRequest
      ? { pullRequest: pullRequest.number, branch: pullRequest.branch, ...posted }
      : undefined;
    const durationMs = Date.now() - startedAt;
    context.stdout.write(args.json ? summaryJson(outcome, durationMs, preview) : summaryText(outcome, durationMs));
    return 0;
  } catch (error) {
    await reportPreview(pullRequest, null, args.comment, progress);
    const { url, siteId, fromLogin } = args;
    throw explainFailure(error, { url, siteId, fromLogin, attempts: context.retry.attempts });
  }
}
