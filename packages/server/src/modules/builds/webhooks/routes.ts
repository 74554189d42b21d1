import { createHash } from 'node:crypto';
import { api, type ReleaseSource } from '@wharf/contract';
import type { FastifyRequest } from 'fastify';
import { type Guard, param } from '../../../access/guards.ts';
import type { Database, Db, Executor } from '../../../db/schema.ts';
import { isUniqueViolation } from '../../../db/uniqueViolation.ts';
import type { PartsOf } from '../../../features/parts.ts';
import { httpError } from '../../../http/errors.ts';
import { rawBody } from '../../../http/jsonBody.ts';
import { findBadText, textInvalid } from '../../../http/textRule.ts';
import { now } from '../../../lib/ids.ts';
import { readJson } from '../../../lib/json.ts';
import { deleteBranch } from '../../branches/service.ts';
import { queueBuild } from '../buildRows.ts';
import { buildableRepository } from '../routes.ts';
import { asksToSkip, changesWatchedPath, type ForgeEvent, forgeEventOf, matchesBranches } from './forgeEvents.ts';
import { deliveryOf, eventOf, forgeOf, isSigned } from './forges.ts';

type SiteRow = Database['sites'];
type RepositoryRow = Database['site_repositories'];
type Parts = PartsOf<'access' | 'config' | 'db' | 'handle' | 'sealer'>;

const DELIVERIES_KEPT_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * Remembers a delivery by the digest of its body, refusing one received before: a forge's retry
 * of a delivery Wharf acted on, or a signed body someone captured and sends again (the delivery
 * id in its headers is not signed, so the body itself is what is remembered).
 */
async function mustBeFirstDelivery(db: Db, siteId: string, body: Buffer, deliveryId: string) {
  const digest = createHash('sha256').update(body).digest('hex');
  const at = now();
  try {
    await db.transaction().execute(async (trx) => {
      await trx
        .deleteFrom('webhook_deliveries')
        .where('site_id', '=', siteId)
        .where('received_at', '<', new Date(Date.now() - DELIVERIES_KEPT_MS).toISOString())
        .execute();
      await trx
        .insertInto('webhook_deliveries')
        .values({ site_id: siteId, digest, delivery_id: deliveryId, received_at: at })
        .execute();
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw httpError('WEBHOOK_REPLAYED', 'This delivery was received before');
    throw error;
  }
}

/** Whether a push to this branch builds: the production branch always, the others as the settings say. */
function buildsBranch(repository: RepositoryRow, gitBranch: string) {
  if (gitBranch === repository.production_branch) return true;
  if (repository.branch_deploys === 'none') return false;
  return repository.branch_deploys === 'all' || matchesBranches(gitBranch, JSON.parse(repository.branches) as string[]);
}

async function deleteBranchNamed(db: Db, site: SiteRow, name: string) {
  const branch = await db
    .selectFrom('branches')
    .selectAll()
    .where('site_id', '=', site.id)
    .where('name', '=', name)
    .executeTakeFirst();
  if (!branch || branch.id === site.main_branch_id) return `The branch ${name} has nothing to delete here`;
  await deleteBranch(db, null, site, branch);
  return `Deleted the branch ${name}`;
}

const answer = (message: string, builds: string[] = []) => ({ builds, message });

/** Acts on what a delivery asks: a build queued, a branch deleted, or why nothing was done. */
async function actOn(parts: Parts, site: SiteRow, repository: RepositoryRow, event: ForgeEvent) {
  const { db } = parts;
  const queue = (work: (trx: Executor, repository: RepositoryRow) => Promise<{ id: string }>) =>
    db
      .transaction()
      .execute(async (trx) =>
        answer('Build queued', [(await work(trx, await buildableRepository(parts, trx, site))).id]),
      );
  switch (event.kind) {
    case 'ignored':
      return answer(event.reason);
    case 'branchDeleted':
      if (event.gitBranch === repository.production_branch) return answer('The production branch is not deleted here');
      return answer(await deleteBranchNamed(db, site, event.gitBranch));
    case 'push': {
      if (asksToSkip(event.message)) return answer('The head commit asks to skip its build');
      if (!buildsBranch(repository, event.gitBranch))
        return answer(`The site does not build the branch ${event.gitBranch}`);
      if (
        event.changedPaths &&
        !changesWatchedPath(event.changedPaths, readJson<string[]>(repository.watch_paths), repository.base_directory)
      )
        return answer('The push changes nothing the site builds from (its base directory or watch paths)');
      const source: ReleaseSource = {
        commit: event.commit,
        message: event.message.slice(0, 2000),
        author: event.author.slice(0, 255),
        ...(event.commitUrl ? { commitUrl: event.commitUrl } : {}),
      };
      return queue((trx, buildable) =>
        queueBuild(trx, site, buildable, {
          gitBranch: event.gitBranch,
          trigger: 'push',
          actorId: null,
          triggeredBy: event.pusher || null,
          via: `A push to ${event.gitBranch}`,
          source,
          report: event.report,
        }),
      );
    }
    case 'pullRequest': {
      const branch = `pr-${event.number}`;
      if (!repository.previews) return answer('The site builds no previews of pull requests');
      if (event.action === 'close') return answer(await deleteBranchNamed(db, site, branch));
      return queue((trx, buildable) =>
        queueBuild(trx, site, buildable, {
          gitBranch: event.gitBranch,
          branch,
          fetchRef: event.fetchRef,
          trigger: 'pullRequest',
          actorId: null,
          triggeredBy: event.author || null,
          via: `Pull request #${event.number}`,
          source: {
            commit: event.commit,
            pullRequest: event.number,
            ...(event.url ? { pullRequestUrl: event.url } : {}),
          },
          report: event.report,
        }),
      );
    }
  }
}

/**
 * The delivery's JSON: the body itself, or the `payload` field of GitHub's form-encoded kind (its
 * default content type), under the same text rule. Undefined when neither holds JSON.
 */
function payloadOf(request: FastifyRequest): unknown {
  if (!request.headers['content-type']?.startsWith('application/x-www-form-urlencoded')) return request.body;
  const field = (request.body as Record<string, string>).payload;
  if (field === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(field);
  } catch {
    return undefined;
  }
  const problem = findBadText(parsed, []);
  if (problem) throw textInvalid(problem);
  return parsed;
}

/**
 * A forge's webhook for a site's repository: who sent it, its signature, that it is not a
 * replay, then what it asks. The site's existence is not told apart from a site without a
 * repository: anyone may call this address.
 */
export function webhookRoutes(parts: Parts) {
  const { db, sealer } = parts;
  /** The site of the path and its repository, before the body is read. */
  const connected = (async (_actor, params) => {
    const siteId = param(params, 'siteId');
    const site = await db.selectFrom('sites').selectAll().where('id', '=', siteId).executeTakeFirst();
    const repository = site
      ? await db.selectFrom('site_repositories').selectAll().where('site_id', '=', site.id).executeTakeFirst()
      : undefined;
    if (!site || !repository) throw httpError('REPOSITORY_NOT_CONNECTED', 'No repository is connected to this site');
    return { site, repository };
  }) satisfies Guard;
  parts.handle(api.receiveWebhook, connected, async ({ site, repository, request }) => {
    const forge = forgeOf(request.headers);
    const body = rawBody(request);
    const payload = body && payloadOf(request);
    if (!forge || !body || payload === undefined)
      throw httpError(
        'WEBHOOK_UNKNOWN',
        'Send a GitHub, GitLab, Gitea or Forgejo webhook, as JSON (or GitHub’s form with its payload field)',
      );
    if (!isSigned(forge, request.headers, body, sealer.open(repository.webhook_secret_sealed)))
      throw httpError('WEBHOOK_SIGNATURE_INVALID', 'The delivery is not signed with this repository’s webhook secret');
    await mustBeFirstDelivery(db, site.id, body, deliveryOf(forge, request.headers));
    return actOn(parts, site, repository, forgeEventOf(forge, eventOf(forge, request.headers), payload));
  });
}
