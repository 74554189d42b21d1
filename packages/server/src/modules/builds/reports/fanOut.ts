import type { DurableConsumer } from '../../../events/dispatcher.ts';
import { enqueueJob } from '../../../jobs/queue.ts';
import { readJson } from '../../../lib/json.ts';

/** The events a build reports to its forge: it started, and how it ended. */
const REPORTED = new Set(['site_build_started', 'site_build_succeeded', 'site_build_failed', 'site_build_cancelled']);

/**
 * Turns a build's events into reports to its forge: one job per event of a build that has a
 * report target (a forge's delivery queued it) and whose repository has a forge token, queued in
 * the transaction that marks the events dispatched, so none is lost or sent twice by a crash.
 */
export const buildReportFanOut: DurableConsumer = {
  name: 'buildReports',
  async consume(trx, events) {
    const reported = events
      .filter((event) => REPORTED.has(event.name))
      .map((event) => ({ event, buildId: readJson<{ buildId: string }>(event.data).buildId }));
    if (reported.length === 0) return;
    const reportable = await trx
      .selectFrom('builds')
      .innerJoin('site_repositories', 'site_repositories.site_id', 'builds.site_id')
      .select('builds.id')
      .where(
        'builds.id',
        'in',
        reported.map(({ buildId }) => buildId),
      )
      .where('builds.report', 'is not', null)
      .where('site_repositories.forge_token_sealed', 'is not', null)
      .execute();
    const ids = new Set(reportable.map((row) => row.id));
    for (const { event, buildId } of reported) {
      if (ids.has(buildId))
        await enqueueJob(trx, { kind: 'forgeReport', eventId: event.id, payload: { buildId, event: event.name } });
    }
  },
};
