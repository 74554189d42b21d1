import { sql } from 'kysely';
import type { Db } from '../db/schema.ts';

export interface Counters {
  requests: number;
  bytes: number;
  status_2xx: number;
  status_3xx: number;
  status_4xx: number;
  status_5xx: number;
}

const empty = (): Counters => ({ requests: 0, bytes: 0, status_2xx: 0, status_3xx: 0, status_4xx: 0, status_5xx: 0 });
const COUNTERS = Object.keys(empty()) as (keyof Counters)[];
const CLASSES = ['status_2xx', 'status_2xx', 'status_2xx', 'status_3xx', 'status_4xx', 'status_5xx'] as const;
const statusClass = (status: number) => CLASSES[Math.min(5, Math.max(2, Math.floor(status / 100)))]!;

function countersOf(map: Map<string, Counters>, siteId: string) {
  let counters = map.get(siteId);
  if (!counters) {
    counters = empty();
    map.set(siteId, counters);
  }
  return counters;
}

function addCounts(map: Map<string, Counters>, siteId: string, counts: Counters) {
  const counters = countersOf(map, siteId);
  for (const key of COUNTERS) counters[key] += counts[key];
}

function count(counters: Counters, cls: (typeof CLASSES)[number], bytes: number) {
  counters.requests += 1;
  counters.bytes += bytes;
  counters[cls] += 1;
}

/**
 * Requests and bytes per site and status class: totals since start for /metrics, and the pending
 * part of the current hour, added to the database on each flush for the console's traffic chart.
 */
export class SiteMetrics {
  private readonly totals = new Map<string, Counters>();
  private pending = new Map<string, Counters>();

  record(siteId: string, status: number, bytes: number) {
    const cls = statusClass(status);
    count(countersOf(this.totals, siteId), cls, bytes);
    count(countersOf(this.pending, siteId), cls, bytes);
  }

  /** Counts another process recorded (a cluster worker), added to this one's. */
  add(siteId: string, counts: Counters) {
    for (const map of [this.totals, this.pending]) addCounts(map, siteId, counts);
  }

  /** What was recorded since the last call, handed over to the process that keeps the totals. */
  takePending(): [string, Counters][] {
    const batch = [...this.pending];
    this.pending = new Map();
    return batch;
  }

  async flush(db: Db, at = new Date()) {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    const hour = `${at.toISOString().slice(0, 13)}:00:00.000Z`;
    const unwritten = new Map(batch);
    try {
      for (const [siteId, c] of batch) {
        await this.write(db, siteId, hour, c);
        unwritten.delete(siteId);
      }
    } catch (error) {
      // Kept for the next flush (the database away): the traffic of an outage is counted, not lost.
      for (const [siteId, counts] of unwritten) addCounts(this.pending, siteId, counts);
      throw error;
    }
  }

  private async write(db: Db, siteId: string, hour: string, c: Counters) {
    await db
      .insertInto('site_traffic')
      .values({ site_id: siteId, hour, ...c })
      .onConflict((oc) =>
        oc.columns(['site_id', 'hour']).doUpdateSet({
          requests: sql`site_traffic.requests + ${c.requests}`,
          bytes: sql`site_traffic.bytes + ${c.bytes}`,
          status_2xx: sql`site_traffic.status_2xx + ${c.status_2xx}`,
          status_3xx: sql`site_traffic.status_3xx + ${c.status_3xx}`,
          status_4xx: sql`site_traffic.status_4xx + ${c.status_4xx}`,
          status_5xx: sql`site_traffic.status_5xx + ${c.status_5xx}`,
        }),
      )
      .execute();
  }

  /** Prometheus text format, one series per site and status class. */
  prometheus(siteNames: (siteId: string) => string | undefined) {
    const lines = [
      '# HELP wharf_site_requests_total Requests served for a site, by status class.',
      '# TYPE wharf_site_requests_total counter',
    ];
    const bytes = [
      '# HELP wharf_site_bytes_total Bytes of response bodies sent for a site.',
      '# TYPE wharf_site_bytes_total counter',
    ];
    for (const [siteId, c] of this.totals) {
      const site = siteNames(siteId) ?? siteId;
      for (const cls of ['2xx', '3xx', '4xx', '5xx'] as const) {
        lines.push(`wharf_site_requests_total{site="${site}",status="${cls}"} ${c[`status_${cls}`]}`);
      }
      bytes.push(`wharf_site_bytes_total{site="${site}"} ${c.bytes}`);
    }
    return `${[...lines, ...bytes].join('\n')}\n`;
  }
}
