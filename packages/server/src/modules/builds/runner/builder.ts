import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { recordEvent } from '../../../events/outbox.ts';
import { HttpError } from '../../../http/errors.ts';
import { now } from '../../../lib/ids.ts';
import { PassLoop } from '../../../lib/passLoop.ts';
import { siteScope } from '../../sites/siteEvents.ts';
import { type BuildRow, buildEventData } from '../buildRows.ts';
import { removeCachesOfDeletedSites } from './buildCache.ts';
import { BuildLog } from './buildLog.ts';
import { type BuildWork, buildFolder, runBuild } from './runBuild.ts';
import { BuildStepFailed } from './stepFailed.ts';

const POLL_EVERY_MS = 2_000;
/** How often caches of deleted sites are looked for on this builder's disk. */
const CACHE_SWEEP_EVERY_MS = 60 * 60_000;
/** How often a running build's claim is renewed, and its cancellation looked for. */
const RENEW_EVERY_MS = 2_000;
/** A claim not renewed for this long belongs to a builder that stopped. */
const LEASE_MS = 30_000;
const CANDIDATES = 20;

const leaseEnd = () => new Date(Date.now() + LEASE_MS).toISOString();

type Failure = { state: 'failed' | 'cancelled'; error: string };
type Outcome = { state: 'succeeded'; releaseId: string } | Failure;

/**
 * Runs builds on a node of the builder role: claims queued builds (a conditional update with a
 * lease, so two builders never run one build), at most `WHARF_BUILD_SLOTS` here and
 * `WHARF_BUILD_CONCURRENCY` per organization across the installation, oldest first; renews the
 * claims of its builds and stops one whose cancellation was asked for; fails the builds of a
 * builder that stopped.
 */
export class Builder {
  private readonly running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  private readonly loop = new PassLoop(() =>
    this.pass().catch((err) => this.log.error({ err }, 'reading the build queue failed')),
  );
  private renewal: NodeJS.Timeout | undefined;
  private cacheSweep: NodeJS.Timeout | undefined;

  constructor(
    private readonly work: BuildWork,
    private readonly node: string,
    private readonly log: FastifyBaseLogger,
    /** Told when a build's log grew, so live readers in this process hear at once. */
    private readonly onLogLines: (buildId: string) => void = () => {},
  ) {}

  private get db() {
    return this.work.release.db;
  }

  async run() {
    // Folders of builds a stopped process left behind.
    await rm(path.join(this.work.release.config.dataDir, 'builds'), { recursive: true, force: true });
    this.loop.start(POLL_EVERY_MS);
    this.renewal = setInterval(
      () => void this.renew().catch((err) => this.log.warn({ err }, 'renewing builds failed')),
      RENEW_EVERY_MS,
    );
    this.renewal.unref();
    const sweep = () =>
      void removeCachesOfDeletedSites(this.db, this.work.release.config.dataDir).catch((err) =>
        this.log.warn({ err }, 'removing the caches of deleted sites failed'),
      );
    sweep();
    this.cacheSweep = setInterval(sweep, CACHE_SWEEP_EVERY_MS);
    this.cacheSweep.unref();
  }

  wake(): Promise<void> {
    return this.loop.wake();
  }

  /** Stops claiming; the builds running here end as failed (a retry builds them again). */
  async close() {
    clearInterval(this.renewal);
    clearInterval(this.cacheSweep);
    await this.loop.stop();
    for (const { controller } of this.running.values()) controller.abort('Wharf stopped during the build: retry it');
    await Promise.all([...this.running.values()].map(({ done }) => done));
  }

  private async pass() {
    await this.failAbandoned();
    const free = this.work.settings.slots - this.running.size;
    if (free <= 0) return;
    const queued = await this.db
      .selectFrom('builds')
      .selectAll()
      .where('state', '=', 'queued')
      .orderBy('created_at')
      .limit(CANDIDATES)
      .execute();
    let started = 0;
    for (const row of queued) {
      if (started >= free) break;
      const claimed = await this.claim(row);
      if (claimed) {
        this.start(claimed);
        started++;
      }
    }
  }

  private async runningOfOrg(orgId: string) {
    const { count } = await this.db
      .selectFrom('builds')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('org_id', '=', orgId)
      .where('state', '=', 'running')
      .executeTakeFirstOrThrow();
    return Number(count);
  }

  /** Takes a queued build unless its organization runs as many as it may; answers it, claimed, or null. */
  private async claim(row: BuildRow): Promise<BuildRow | null> {
    const limit = this.work.settings.orgConcurrency;
    if ((await this.runningOfOrg(row.org_id)) >= limit) return null;
    return this.db.transaction().execute(async (trx) => {
      const claimed = await trx
        .updateTable('builds')
        .set({ state: 'running', node: this.node, lease_until: leaseEnd(), started_at: now() })
        .where('id', '=', row.id)
        .where('state', '=', 'queued')
        .returningAll()
        .executeTakeFirst();
      if (!claimed) return null;
      const site = await trx.selectFrom('sites').selectAll().where('id', '=', row.site_id).executeTakeFirst();
      if (!site) return null;
      await recordEvent(trx, {
        name: 'site_build_started',
        actorId: null,
        ...siteScope(site),
        data: buildEventData(claimed),
      });
      return claimed;
    });
  }

  private start(row: BuildRow) {
    const controller = new AbortController();
    const timeout = setTimeout(
      () => controller.abort(`The build ran longer than ${this.work.settings.timeoutMs / 60_000} minutes`),
      this.work.settings.timeoutMs,
    );
    const done = this.execute(row, controller.signal)
      .catch((err) => this.log.error({ err, build: row.id }, 'a build could not be finished'))
      .finally(() => {
        clearTimeout(timeout);
        this.running.delete(row.id);
        void this.wake();
      });
    this.running.set(row.id, { controller, done });
  }

  private async execute(row: BuildRow, signal: AbortSignal) {
    const log = new BuildLog(this.db, row.id, [], () => this.onLogLines(row.id));
    let outcome: Outcome;
    try {
      const published = await runBuild(this.work, row, log, signal);
      log.say(`Published to ${published.url ?? row.branch}${published.unchanged ? ' (the files did not change)' : ''}`);
      outcome = { state: 'succeeded', releaseId: published.releaseId };
    } catch (error) {
      const failure = this.failure(row, error, signal);
      log.say(failure.error);
      outcome = failure;
    } finally {
      await rm(buildFolder(this.work.release.config.dataDir, row.id), { recursive: true, force: true }).catch((err) =>
        this.log.warn({ err, build: row.id }, 'could not remove a build’s folder'),
      );
    }
    await log.close().catch((err) => this.log.error({ err, build: row.id }, 'could not keep a build’s log'));
    await this.finish(row, outcome);
  }

  /** Why a build failed, in a sentence for its page; what is Wharf's own fault is logged here too. */
  private failure(row: BuildRow, error: unknown, signal: AbortSignal): Failure {
    const cancelled = signal.aborted && signal.reason === CANCELLED;
    if (cancelled) return { state: 'cancelled', error: CANCELLED };
    if (signal.aborted) return { state: 'failed', error: String(signal.reason) };
    if (error instanceof BuildStepFailed || error instanceof HttpError)
      return { state: 'failed', error: error.message };
    this.log.error({ err: error, build: row.id }, 'a build failed on Wharf’s side');
    return { state: 'failed', error: 'Something went wrong on Wharf’s side; it has been logged' };
  }

  private async finish(row: BuildRow, outcome: Outcome) {
    await this.db.transaction().execute(async (trx) => {
      const finished = await trx
        .updateTable('builds')
        .set({
          state: outcome.state,
          release_id: outcome.state === 'succeeded' ? outcome.releaseId : null,
          error: outcome.state === 'succeeded' ? null : outcome.error,
          finished_at: now(),
          lease_until: null,
        })
        .where('id', '=', row.id)
        .where('state', '=', 'running')
        .returningAll()
        .executeTakeFirst();
      const site = await trx.selectFrom('sites').selectAll().where('id', '=', row.site_id).executeTakeFirst();
      // A cancellation was recorded by whoever asked for it.
      if (!finished || !site || outcome.state === 'cancelled') return;
      await recordEvent(trx, {
        name: `site_build_${outcome.state}`,
        actorId: null,
        ...siteScope(site),
        data: buildEventData(
          finished,
          outcome.state === 'succeeded' ? { releaseId: outcome.releaseId } : { error: outcome.error },
        ),
      });
    });
  }

  /** Renews the claims of the builds running here, and stops those whose cancellation was asked for. */
  private async renew() {
    const ids = [...this.running.keys()];
    if (ids.length === 0) return;
    await this.db.updateTable('builds').set({ lease_until: leaseEnd() }).where('id', 'in', ids).execute();
    const cancelled = await this.db
      .selectFrom('builds')
      .select('id')
      .where('id', 'in', ids)
      .where('cancel_requested', '=', 1)
      .execute();
    for (const { id } of cancelled) this.running.get(id)?.controller.abort(CANCELLED);
  }

  /** Builds whose builder stopped renewing its claim (it crashed, or lost the database) end as failed. */
  private async failAbandoned() {
    const abandoned = await this.db
      .selectFrom('builds')
      .selectAll()
      .where('state', '=', 'running')
      .where('lease_until', '<', now())
      .execute();
    for (const row of abandoned)
      await this.finish(row, { state: 'failed', error: 'The builder running it stopped: retry it' });
  }

  /** Asks the build running here to stop now, rather than at the next renewal. */
  cancel(buildId: string) {
    this.running.get(buildId)?.controller.abort(CANCELLED);
  }
}

export const CANCELLED = 'Cancelled';
