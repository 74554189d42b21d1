import type { ReleaseSource } from '@wharf/contract';
import {
  editCommentCall,
  type ForgeCall,
  type ForgeState,
  type ForgeStatus,
  newCommentCall,
  statusCall,
} from '@wharf/contract/forge';
import type { Config } from '../../../config/types.ts';
import type { Database, Db } from '../../../db/schema.ts';
import type { JobOutcome, JobSender } from '../../../jobs/runner.ts';
import { now } from '../../../lib/ids.ts';
import { readJson } from '../../../lib/json.ts';
import type { Sealer } from '../../../lib/secrets.ts';
import { branchAddress } from '../../../lib/urls.ts';
import { type OutboundGuard, OutboundRefused } from '../../../outbound/guard.ts';
import { requestJson } from '../../../outbound/jsonRequest.ts';
import { repositoryHost } from '../runner/repositoryAddress.ts';
import { commentText } from './comment.ts';
import { claimComment } from './commentClaims.ts';
import { alreadyReported, forgeHeaders } from './forgeApi.ts';
import type { ReportTarget } from './target.ts';

type BuildRow = Database['builds'];
type SiteRow = Database['sites'];

export interface ReportParts {
  db: Db;
  sealer: Sealer;
  config: Pick<Config, 'url' | 'sitesUrl' | 'branchHosts'>;
  guard: OutboundGuard;
}

/** The events of a build's end that write its pull request's comment (a cancelled build leaves it as it was). */
const ENDINGS = new Set(['site_build_succeeded', 'site_build_failed']);

const FORGE_NAMES = { github: 'GitHub', gitlab: 'GitLab', gitea: 'Gitea' } as const;

/** A call the forge answered with a refusal: final unless it asks to be tried later (429, 5xx). */
class ForgeRefusal extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly retryAfterMs: number | null,
  ) {
    super(message);
  }

  get final() {
    return this.status !== 429 && this.status < 500;
  }
}

/**
 * The forge's API must live where the repository does (`api.github.com` for `github.com`, the
 * same host for GitHub Enterprise, GitLab and Gitea): the token goes nowhere else, whatever a
 * delivery says.
 */
function apiHostProblem(target: ReportTarget, repositoryUrl: string): string | null {
  const host = repositoryHost(repositoryUrl).toLowerCase();
  const apiHost = new URL(target.api).hostname.toLowerCase();
  if (apiHost === host || apiHost === `api.${host}`) return null;
  return `The forge's API at ${apiHost} is not where the repository is (${host}): Wharf sends its token nowhere else`;
}

const stateOf = (build: BuildRow): ForgeState | null =>
  build.state === 'queued' ? null : build.state === 'running' ? 'running' : build.state;

/** What the forge's answer says went wrong, in a line. */
function refusalText(status: number, body: unknown): string {
  const message =
    body && typeof body === 'object'
      ? ((body as Record<string, unknown>).message ?? (body as Record<string, unknown>).error)
      : body;
  const text = typeof message === 'string' ? message : JSON.stringify(message ?? '');
  return `${status}${text ? `: ${text.slice(0, 200)}` : ''}`;
}

async function call(parts: ReportParts, target: ReportTarget, token: string, forgeCall: ForgeCall, what: string) {
  const answer = await requestJson(
    parts.guard,
    forgeCall.method,
    new URL(forgeCall.url),
    forgeHeaders(target, token),
    forgeCall.body,
  );
  if ((answer.status >= 200 && answer.status < 300) || alreadyReported(target, answer.status, answer.body))
    return answer;
  const seconds = Number(answer.retryAfter);
  throw new ForgeRefusal(
    `${FORGE_NAMES[target.forge]} answered ${refusalText(answer.status, answer.body)} to ${what}`,
    answer.status,
    Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : null,
  );
}

/** The address a build's status links to: its branch once published, else its page in the console. */
async function linkOf(parts: ReportParts, site: SiteRow, build: BuildRow) {
  const buildPage = new URL(`/sites/${site.id}/builds/${build.id}`, parts.config.url).href;
  if (build.state !== 'succeeded') return { buildPage, published: null };
  const branch = await parts.db
    .selectFrom('branches')
    .select(['id', 'slug'])
    .where('site_id', '=', site.id)
    .where('name', '=', build.branch)
    .executeTakeFirst();
  return { buildPage, published: branch ? branchAddress(parts.config, site, branch) : null };
}

function statusOf(site: SiteRow, build: BuildRow, state: ForgeState, link: string, published: boolean): ForgeStatus {
  const descriptions: Record<ForgeState, string> = {
    running: `Building ${build.branch}`,
    succeeded: published ? `Published to ${build.branch}` : `Built ${build.branch}`,
    failed: `Failed: ${build.error ?? 'see the log'}`,
    cancelled: 'Cancelled',
  };
  return { state, context: `wharf/${site.name}`, description: descriptions[state], targetUrl: link };
}

/** Whether a later build of the same branch has ended: its comment is the one to keep, not this one's. */
async function supersededOn(db: Db, build: BuildRow) {
  const later = await db
    .selectFrom('builds')
    .select('id')
    .where('site_id', '=', build.site_id)
    .where('branch', '=', build.branch)
    .where('created_at', '>', build.created_at)
    .where('state', 'in', ['succeeded', 'failed'])
    .executeTakeFirst();
  return later !== undefined;
}

/** Another report is writing the pull request's comment: this one edits it once that is done. */
class CommentBusy extends Error {}

/** How long a report waits for another's comment to be written before it tries again. */
const BUSY_RETRY_MS = 5_000;

/** Changes the pull request's one Wharf comment, or writes it when there is none yet (or it was deleted). */
async function keepComment(
  parts: ReportParts,
  target: ReportTarget,
  token: string,
  build: BuildRow,
  number: number,
  body: string,
) {
  let claim = await claimComment(parts.db, build.site_id, number);
  if (claim.kind === 'edit') {
    const edit = editCommentCall(target.forge, target.api, number, claim.commentId, body);
    try {
      await call(parts, target, token, edit, 'the comment’s update');
      return;
    } catch (error) {
      if (!(error instanceof ForgeRefusal && error.status === 404)) throw error;
    }
    claim = await claimComment(parts.db, build.site_id, number, claim.commentId);
  }
  if (claim.kind !== 'write') throw new CommentBusy(`Another report is writing the comment of #${number}`);
  try {
    const answer = await call(
      parts,
      target,
      token,
      newCommentCall(target.forge, target.api, number, body),
      'a new comment',
    );
    const id = (answer.body as { id?: unknown } | null)?.id;
    // Kept to build the edit's address: a forge's comment ids are numbers, and nothing else is taken.
    if (/^\d{1,20}$/.test(String(id))) return await claim.written(String(id));
    await claim.release();
  } catch (error) {
    await claim.release();
    throw error;
  }
}

async function noteReport(db: Db, siteId: string, error: string | null) {
  await db
    .updateTable('site_repositories')
    .set({ report_error: error, report_error_at: error ? now() : null })
    .where('site_id', '=', siteId)
    .execute();
}

/** Reports a build as it is now (not as it was when the job was queued): a late retry never undoes a later state. */
async function report(
  parts: ReportParts,
  event: string,
  build: BuildRow,
  site: SiteRow,
  target: ReportTarget,
  token: string,
) {
  const state = stateOf(build);
  if (!state) return;
  const source = readJson<ReleaseSource>(build.source);
  if (!source.commit) return;
  const { buildPage, published } = await linkOf(parts, site, build);
  const status = statusOf(site, build, state, published ?? buildPage, published !== null);
  await call(parts, target, token, statusCall(target.forge, target.api, source.commit, status), 'the commit status');
  // The comment is written once per build, by the report of how it ended: two reports of one
  // build never write it side by side.
  const number = source.pullRequest;
  if (!number || !ENDINGS.has(event) || !ENDINGS.has(`site_build_${build.state}`)) return;
  if (await supersededOn(parts.db, build)) return;
  const text = commentText({ site: site.name, build, commit: source.commit, buildPage, published });
  await keepComment(parts, target, token, build, number, text);
}

/** The sender of `forgeReport` jobs: a build's commit status, and its pull request's comment. */
export function forgeReportSender(parts: ReportParts): JobSender {
  const { db, sealer } = parts;
  return async (job): Promise<JobOutcome> => {
    const { buildId, event } = readJson<{ buildId: string; event: string }>(job.payload);
    const build = await db.selectFrom('builds').selectAll().where('id', '=', buildId).executeTakeFirst();
    const repository = build
      ? await db.selectFrom('site_repositories').selectAll().where('site_id', '=', build.site_id).executeTakeFirst()
      : undefined;
    const site = build
      ? await db.selectFrom('sites').selectAll().where('id', '=', build.site_id).executeTakeFirst()
      : undefined;
    // A site deleted, a repository disconnected or a token removed since: there is nothing to report with.
    if (!build?.report || !site || !repository?.forge_token_sealed) return { ok: true };
    const target = readJson<ReportTarget>(build.report);
    const misplaced = apiHostProblem(target, repository.url);
    if (misplaced) {
      await noteReport(db, site.id, misplaced);
      return { ok: false, final: true, error: misplaced };
    }
    try {
      await report(parts, event, build, site, target, sealer.open(repository.forge_token_sealed));
      if (repository.report_error) await noteReport(db, site.id, null);
      return { ok: true };
    } catch (error) {
      if (error instanceof CommentBusy)
        return { ok: false, final: false, error: error.message, retryAfterMs: BUSY_RETRY_MS };
      const refusal = error instanceof ForgeRefusal;
      const message = refusal ? error.message : `The forge could not be reached: ${(error as Error).message}`;
      await noteReport(db, site.id, message);
      const final = (refusal && error.final) || error instanceof OutboundRefused;
      return { ok: false, final, error: message, retryAfterMs: refusal ? error.retryAfterMs : null };
    }
  };
}
