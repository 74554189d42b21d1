import { rm } from 'node:fs/promises';
import { api, type ReleaseSource } from '@wharf/contract';
import { type Guard, param } from '../../access/guards.ts';
import { userOf } from '../../access/rules.ts';
import type { Database, Executor } from '../../db/schema.ts';
import { recordEvent } from '../../events/outbox.ts';
import type { PartsOf } from '../../features/parts.ts';
import { httpError } from '../../http/errors.ts';
import { now } from '../../lib/ids.ts';
import { readJson } from '../../lib/json.ts';
import { offsetOf } from '../../lib/paging.ts';
import { siteScope } from '../sites/siteEvents.ts';
import { type BuildRow, buildEventData, findBuild, queueBuild, toBuild } from './buildRows.ts';
import { imageAllowed } from './buildSettings.ts';
import type { ReportTarget } from './reports/target.ts';
import { cacheFolder } from './runner/buildCache.ts';

type SiteRow = Database['sites'];

/** The site's repository, for a build: refused while builds are off, without one, or with an image not allowed. */
export async function buildableRepository(
  parts: PartsOf<'config'>,
  db: Executor,
  site: SiteRow,
): Promise<Database['site_repositories']> {
  const settings = parts.config.builds;
  if (!settings)
    throw httpError('BUILDS_OFF', 'This installation runs no builds: its operator has configured no container runtime');
  const repository = await db
    .selectFrom('site_repositories')
    .selectAll()
    .where('site_id', '=', site.id)
    .executeTakeFirst();
  if (!repository) throw httpError('REPOSITORY_NOT_CONNECTED', 'No repository is connected to this site');
  if (!imageAllowed(settings, repository.image))
    throw httpError('BUILD_IMAGE_NOT_ALLOWED', `The image ${repository.image} is not allowed on this installation`);
  return repository;
}

async function userName(db: Executor, userId: string) {
  const user = await db.selectFrom('users').select('name').where('id', '=', userId).executeTakeFirst();
  return user?.name ?? null;
}

const needs = ['access', 'config', 'db', 'handle'] as const;

/** A site's builds: listed, started, followed, cancelled, retried; its cache cleared. */
export function buildRoutes(parts: PartsOf<(typeof needs)[number]>) {
  const { db, access } = parts;

  /** A build of the path's site, for those who may see the site (or manage it): checked before any input is read. */
  const buildOf = (guard: typeof access.siteViewer) =>
    (async (actor, params) => {
      const granted = await guard(actor, params);
      return { ...granted, build: await findBuild(db, granted.site.id, param(params, 'buildId')) };
    }) satisfies Guard;
  const seenBuild = buildOf(access.siteViewer);
  const managedBuild = buildOf(access.siteManager);

  parts.handle(api.listBuilds, access.siteViewer, async ({ site, query }) => {
    const [rows, total] = await Promise.all([
      db
        .selectFrom('builds')
        .selectAll()
        .where('site_id', '=', site.id)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(query.size)
        .offset(offsetOf(query))
        .execute(),
      db
        .selectFrom('builds')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('site_id', '=', site.id)
        .executeTakeFirstOrThrow(),
    ]);
    return { items: rows.map(toBuild), count: Number(total.count) };
  });

  parts.handle(api.getBuild, seenBuild, async ({ build }) => toBuild(build));

  parts.handle(api.getBuildLog, seenBuild, async ({ site, params, query }) => {
    const build = await findBuild(db, site.id, params.buildId);
    const lines = await db
      .selectFrom('build_log')
      .select(['seq', 'at', 'text'])
      .where('build_id', '=', build.id)
      .where('seq', '>=', query.after)
      .orderBy('seq')
      .limit(1000)
      .execute();
    const ended = build.state !== 'queued' && build.state !== 'running';
    const last = lines.at(-1)?.seq ?? query.after - 1;
    return { lines, finished: ended && last + 1 >= build.log_lines };
  });

  parts.handle(api.startBuild, access.siteManager, async ({ actor, site, body }) =>
    db.transaction().execute(async (trx) => {
      const repository = await buildableRepository(parts, trx, site);
      const userId = userOf(actor);
      const row = await queueBuild(trx, site, repository, {
        gitBranch: body.gitBranch ?? repository.production_branch,
        trigger: 'manual',
        actorId: userId,
        triggeredBy: await userName(trx, userId),
      });
      return toBuild(row);
    }),
  );

  parts.handle(api.retryBuild, managedBuild, async ({ actor, site, params }) =>
    db.transaction().execute(async (trx) => {
      const earlier = await findBuild(trx, site.id, params.buildId);
      const repository = await buildableRepository(parts, trx, site);
      const userId = userOf(actor);
      const { commit, pullRequest, pullRequestUrl } = readJson<ReleaseSource>(earlier.source);
      const row = await queueBuild(trx, site, repository, {
        gitBranch: earlier.git_branch,
        trigger: 'retry',
        actorId: userId,
        triggeredBy: await userName(trx, userId),
        source: { commit, pullRequest, pullRequestUrl },
        retryOf: earlier.id,
        branch: earlier.branch,
        ...(earlier.fetch_ref ? { fetchRef: earlier.fetch_ref } : {}),
        // A retry of a pushed commit reports to the forge as the first build did.
        report: earlier.report ? readJson<ReportTarget>(earlier.report) : null,
      });
      return toBuild(row);
    }),
  );

  parts.handle(api.cancelBuild, managedBuild, async ({ actor, site, params }) =>
    db.transaction().execute(async (trx) => {
      const build = await findBuild(trx, site.id, params.buildId);
      const cancelled = await cancel(trx, build);
      if (!cancelled) throw httpError('BUILD_FINISHED', 'The build has finished: there is nothing to cancel');
      await recordEvent(trx, {
        name: 'site_build_cancelled',
        actorId: userOf(actor),
        ...siteScope(site),
        data: buildEventData(cancelled),
      });
      return toBuild(cancelled);
    }),
  );

  parts.handle(api.clearBuildCache, access.siteManager, async ({ actor, site }) => {
    await db.transaction().execute(async (trx) => {
      const cleared = await trx
        .updateTable('site_repositories')
        .set({ cache_cleared_at: now() })
        .where('site_id', '=', site.id)
        .returning('site_id')
        .executeTakeFirst();
      if (!cleared) throw httpError('REPOSITORY_NOT_CONNECTED', 'No repository is connected to this site');
      await recordEvent(trx, {
        name: 'site_build_cache_cleared',
        actorId: userOf(actor),
        ...siteScope(site),
        data: {},
      });
    });
    // This node's copy goes now; other builders drop theirs at the next build (they compare times).
    await rm(cacheFolder(parts.config.dataDir, site.id), { recursive: true, force: true });
  });
}

/**
 * A queued build is cancelled at once; a running one is asked to stop (its builder hears the
 * event and removes its container, or sees the flag at its next renewal). Null when finished.
 */
async function cancel(trx: Executor, build: BuildRow): Promise<BuildRow | null> {
  if (build.state === 'queued') {
    const at = now();
    return (
      (await trx
        .updateTable('builds')
        .set({ state: 'cancelled', error: 'Cancelled', finished_at: at })
        .where('id', '=', build.id)
        .where('state', '=', 'queued')
        .returningAll()
        .executeTakeFirst()) ?? null
    );
  }
  if (build.state !== 'running') return null;
  return (
    (await trx
      .updateTable('builds')
      .set({ cancel_requested: 1 })
      .where('id', '=', build.id)
      .returningAll()
      .executeTakeFirst()) ?? null
  );
}
