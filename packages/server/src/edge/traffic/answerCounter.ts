import { SiteMetrics } from '../metrics.ts';
import type { SiteRequest } from '../siteAnswers.ts';
import { pathAsked, referrerHost, type TrafficEntry, TrafficTally, trafficBranchOf } from './tally.ts';

/** An answer as it is counted: a request served, or refused before it was read (its path and host unknown). */
export type Answered = Pick<SiteRequest, 'req' | 'site' | 'branch'> &
  ({ path: string; host: string; trailingSlash: boolean } | { path: null; host: null; trailingSlash?: never });

/** What an edge counts of its answers: the sites' totals since start (/metrics), and their traffic until written. */
export class AnswerCounter {
  readonly metrics = new SiteMetrics();
  readonly traffic = new TrafficTally();

  count(answered: Answered, status: number, bytes: number) {
    const { req, site, branch, host } = answered;
    this.metrics.record(site.id, status, bytes);
    this.traffic.record({
      siteId: site.id,
      branch: trafficBranchOf(branch.id),
      status,
      bytes,
      path: answered.path === null ? null : pathAsked(answered.path, answered.trailingSlash),
      referrer: host === null ? null : referrerHost(req.headers.referer, host),
    });
  }

  /** Traffic a cluster worker counted, added to this process's: the node's totals, and what it writes. */
  addCounted(batch: readonly TrafficEntry[]) {
    for (const entry of batch) this.metrics.add(entry.siteId, entry.counts);
    this.traffic.add(batch);
  }
}
