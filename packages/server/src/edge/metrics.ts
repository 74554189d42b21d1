import { type AnswerCounts, addAnswerCounts, countAnswer, emptyAnswerCounts } from './traffic/counters.ts';

/** Requests and bytes per site and status class since this process started: the sites' series of /metrics. */
export class SiteMetrics {
  private readonly totals = new Map<string, AnswerCounts>();

  record(siteId: string, status: number, bytes: number) {
    countAnswer(this.countersOf(siteId), status, bytes);
  }

  /** Counts another process recorded (a cluster worker), added to this one's. */
  add(siteId: string, counts: AnswerCounts) {
    addAnswerCounts(this.countersOf(siteId), counts);
  }

  private countersOf(siteId: string) {
    let counters = this.totals.get(siteId);
    if (!counters) {
      counters = emptyAnswerCounts();
      this.totals.set(siteId, counters);
    }
    return counters;
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
