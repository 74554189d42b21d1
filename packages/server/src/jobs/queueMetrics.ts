import { Gauge, type Registry } from 'prom-client';
import type { Db } from '../db/schema.ts';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import { JOB_KINDS } from './queue.ts';

/**
 * The depth of the job queue for /metrics: jobs waiting to be sent (due or backing off after a
 * failed attempt), by kind; `mail` is the mail queue. The queue is the installation's: every
 * node reports the same figures. While the database is away they stay as last read.
 */
export function registerQueueMetrics(registry: Registry, db: Db) {
  return new Gauge({
    name: 'wharf_jobs_queued',
    help: 'Jobs waiting to be sent (hook deliveries, mails, compressed variants), by kind.',
    labelNames: ['kind'] as const,
    registers: [registry],
    async collect() {
      let rows: { kind: string; count: number | string | bigint }[];
      try {
        rows = await db
          .selectFrom('jobs')
          .select(['kind', (s) => s.fn.countAll<number>().as('count')])
          .where('state', '=', 'pending')
          .groupBy('kind')
          .execute();
      } catch (error) {
        if (isDatabaseUnavailable(error)) return;
        throw error;
      }
      const counts = new Map(rows.map((row) => [row.kind, Number(row.count)]));
      for (const kind of JOB_KINDS) this.set({ kind }, counts.get(kind) ?? 0);
    },
  });
}
