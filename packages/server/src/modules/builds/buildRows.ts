import type { Build, BuildPhase, BuildTrigger, ReleaseSource } from '@wharf/contract';
import type { Database, Executor } from '../../db/schema.ts';
import { recordEvent } from '../../events/outbox.ts';
import { httpError } from '../../http/errors.ts';
import { newId, now } from '../../lib/ids.ts';
import { readJson } from '../../lib/json.ts';
import { mainBranchName } from '../releases/create/createRelease.ts';
import { siteScope } from '../sites/siteEvents.ts';
import type { ReportTarget } from './reports/target.ts';

export type BuildRow = Database['builds'];
type SiteRow = Database['sites'];

export function toBuild(row: BuildRow): Build {
  return {
    _id: row.id,
    siteId: row.site_id,
    gitBranch: row.git_branch,
    branch: row.branch,
    source: readJson<ReleaseSource>(row.source),
    trigger: row.trigger,
    triggeredBy: row.triggered_by,
    state: row.state,
    phases: readJson<BuildPhase[]>(row.phases),
    error: row.error,
    releaseId: row.release_id,
    retryOf: row.retry_of,
    image: row.image,
    createdAt: row.created_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  };
}

export async function findBuild(db: Executor, siteId: string, buildId: string): Promise<BuildRow> {
  const row = await db
    .selectFrom('builds')
    .selectAll()
    .where('id', '=', buildId)
    .where('site_id', '=', siteId)
    .executeTakeFirst();
  if (!row) throw httpError('BUILD_NOT_FOUND', 'Build not found');
  return row;
}

/** What asks for a build: its git branch, why, who (a user's id, or the words for a hook or a forge). */
export interface BuildRequest {
  gitBranch: string;
  trigger: BuildTrigger;
  actorId: string | null;
  /** Shown as who queued it: a user's name, `the build hook 'CMS'`, a forge's account. */
  triggeredBy: string | null;
  /** Without an actor: what queued it, for the audit log's sentence. */
  via?: string;
  source?: ReleaseSource;
  retryOf?: string;
  /** The Wharf branch, when not the git branch's (a pull request's `pr-{n}`). */
  branch?: string;
  /** What to fetch, when not the git branch (a pull request's head ref). */
  fetchRef?: string;
  /** Where its forge's API keeps its commit, to report its state to; none: not reported. */
  report?: ReportTarget | null;
}

/**
 * The Wharf branch a git branch's release goes to: the site's main branch for the production
 * branch, a branch of the same name otherwise.
 */
async function targetBranch(db: Executor, site: SiteRow, productionBranch: string, gitBranch: string) {
  return gitBranch === productionBranch ? mainBranchName(db, site) : gitBranch;
}

/** Queues a build in the caller's transaction, with its audit event; builders pick it up after the commit. */
export async function queueBuild(
  trx: Executor,
  site: SiteRow,
  repository: Pick<Database['site_repositories'], 'production_branch' | 'image'>,
  request: BuildRequest,
): Promise<BuildRow> {
  const row: BuildRow = {
    id: newId(),
    site_id: site.id,
    org_id: site.org_id,
    git_branch: request.gitBranch,
    branch: request.branch ?? (await targetBranch(trx, site, repository.production_branch, request.gitBranch)),
    source: JSON.stringify({ branch: request.gitBranch, ...request.source }),
    trigger: request.trigger,
    triggered_by: request.triggeredBy,
    actor_id: request.actorId,
    retry_of: request.retryOf ?? null,
    image: repository.image,
    state: 'queued',
    phases: '[]',
    error: null,
    release_id: null,
    cancel_requested: 0,
    node: null,
    lease_until: null,
    log_lines: 0,
    fetch_ref: request.fetchRef ?? null,
    report: request.report ? JSON.stringify(request.report) : null,
    created_at: now(),
    started_at: null,
    finished_at: null,
  };
  await trx.insertInto('builds').values(row).execute();
  await recordEvent(trx, {
    name: 'site_build_queued',
    actorId: request.actorId,
    ...siteScope(site),
    data: {
      buildId: row.id,
      gitBranch: row.git_branch,
      trigger: row.trigger,
      ...(request.source?.commit ? { commit: request.source.commit } : {}),
      ...(request.via ? { via: request.via } : {}),
    },
  });
  return row;
}

/** The data of a build's later events: which build, of which branch and commit. */
export function buildEventData(row: BuildRow, extra: Record<string, unknown> = {}) {
  const commit = readJson<ReleaseSource>(row.source).commit;
  return { buildId: row.id, gitBranch: row.git_branch, ...(commit ? { commit } : {}), ...extra };
}
