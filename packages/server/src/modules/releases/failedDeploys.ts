import type { FailedDeploy } from '@wharf/contract';
import type { FastifyBaseLogger, FastifyError } from 'fastify';
import type { Executor } from '../../db/schema.ts';
import { recordEvent } from '../../events/outbox.ts';
import { errorBody } from '../../http/errorHandler.ts';
import { newId, now } from '../../lib/ids.ts';
import { readJson } from '../../lib/json.ts';
import { type Page, pageOf } from '../../lib/paging.ts';
import { siteScope } from '../sites/siteEvents.ts';
import { auditOrigin, type DeployOrigin, originColumns, originOfDeploy } from './origin.ts';

/** What is known of a deploy when it fails: at the least its site and when it began. */
export interface DeployAttempt {
  siteId: string;
  /** Empty when it failed before its name was read (an archive cut off early). */
  name: string;
  branches: string[];
  origin: DeployOrigin;
  startedAt: string;
  /** What it was doing, in order, before it stopped. */
  log: string[];
}

/** How long a failed deploy stays listed. */
export const FAILED_DEPLOY_DAYS = 30;

/**
 * Keeps a deploy that ended without a release, with the code and message its caller got. Never
 * throws: the failure is already on its way to the caller, and a database that is away (maybe the
 * very failure) only costs the record, which is logged instead.
 */
export async function recordFailedDeploy(db: Executor, log: FastifyBaseLogger, attempt: DeployAttempt, error: unknown) {
  const { code, message } = errorBody(error as FastifyError);
  const failedAt = now();
  const id = newId();
  try {
    await db
      .insertInto('failed_deploys')
      .values({
        id,
        site_id: attempt.siteId,
        name: attempt.name,
        branches: JSON.stringify(attempt.branches),
        ...originColumns(attempt.origin),
        code,
        message,
        log: JSON.stringify([...attempt.log, `${failedAt} stopped: ${code}: ${message}`]),
        started_at: attempt.startedAt,
        failed_at: failedAt,
      })
      .execute();
    await recordFailureEvent(db, attempt, { failedDeployId: id, code, message });
  } catch (failure) {
    log.error({ err: failure, siteId: attempt.siteId, code }, 'could not keep the record of a failed deploy');
  }
}

/**
 * The event of a failed deploy: the console's open pages of the site hear it (the header's last
 * deploy, the list of failed deploys), and so do the site's hooks and the audit log.
 */
async function recordFailureEvent(
  db: Executor,
  attempt: DeployAttempt,
  failure: { failedDeployId: string; code: string; message: string },
) {
  const site = await db
    .selectFrom('sites')
    .select(['id', 'org_id', 'team_id'])
    .where('id', '=', attempt.siteId)
    .executeTakeFirst();
  // A deploy whose site was deleted under it: nobody is left to tell.
  if (!site) return;
  await recordEvent(db, {
    name: 'site_deploy_failed',
    actorId: attempt.origin.uploader?.userId ?? null,
    ...siteScope(site),
    data: { name: attempt.name, branches: attempt.branches, ...failure, ...auditOrigin(attempt.origin) },
  });
}

/** A deploy row as it was when it failed, for its record. */
export function attemptOfDeploy(
  row: { site_id: string; name: string; branches: string; uploader: string | null; source: string; created_at: string },
  log: string[],
): DeployAttempt {
  return {
    siteId: row.site_id,
    name: row.name,
    branches: readJson<string[]>(row.branches),
    origin: originOfDeploy(row),
    startedAt: row.created_at,
    log: [`${row.created_at} started`, ...log],
  };
}

/** A site's failed deploys, newest first. */
export function listFailedDeploys(db: Executor, siteId: string, page: Page) {
  const query = db.selectFrom('failed_deploys').selectAll().where('site_id', '=', siteId);
  return pageOf(
    query,
    page,
    (ordered) => ordered.orderBy('failed_at', 'desc').orderBy('id', 'desc'),
    (row): FailedDeploy => ({
      _id: row.id,
      siteId: row.site_id,
      name: row.name,
      branches: readJson<string[]>(row.branches),
      ...originOfDeploy(row),
      code: row.code,
      message: row.message,
      log: readJson<string[]>(row.log),
      startedAt: row.started_at,
      failedAt: row.failed_at,
    }),
  );
}

/** Forgets failed deploys older than FAILED_DEPLOY_DAYS; answers how many. */
export async function pruneFailedDeploys(db: Executor, at: Date) {
  const before = new Date(at.getTime() - FAILED_DEPLOY_DAYS * 86_400_000).toISOString();
  const pruned = await db.deleteFrom('failed_deploys').where('failed_at', '<', before).executeTakeFirst();
  return Number(pruned.numDeletedRows);
}
