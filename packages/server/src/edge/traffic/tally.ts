import type { TrafficListKind } from '../../db/tables/sites.ts';
import { RELEASE_ENTRY_PREFIX } from '../releaseAddresses.ts';
import { type AnswerCounts, addAnswerCounts, countAnswer, emptyAnswerCounts } from './counters.ts';

/** The branch key of every release's own address: looked at now and then, counted together. */
export const RELEASE_ADDRESSES = 'releases';

/** The key that counts what a full list had no room for: the console shows it as "Other". */
export const OTHER = '';

/** Distinct keys a list holds between two flushes: a scan of random paths costs bounded memory. */
const KEYS_PER_LIST = 1_000;

/** A path is kept to this length: past it, paths are told apart by nothing a person reads. */
const PATH_LENGTH = 300;

/** One answer as traffic sees it: its site and branch, the path asked, where the visitor came from. */
export interface Visit {
  siteId: string;
  /** The branch's id, or RELEASE_ADDRESSES. */
  branch: string;
  status: number;
  bytes: number;
  /** The path asked, decoded, with its leading slash; null when it was not one a file can have. */
  path: string | null;
  /** The host of the `Referer`, when it is another host than the one asked. */
  referrer: string | null;
}

/** What a site's branch was asked since the last flush, as handed between processes (plain data). */
export interface TrafficEntry {
  siteId: string;
  branch: string;
  counts: AnswerCounts;
  lists: Record<TrafficListKind, [string, number][]>;
}

interface Pending {
  counts: AnswerCounts;
  lists: Record<TrafficListKind, Map<string, number>>;
}

const emptyPending = (): Pending => ({
  counts: emptyAnswerCounts(),
  lists: { path: new Map(), missing: new Map(), referrer: new Map() },
});

function bump(list: Map<string, number>, key: string, by: number) {
  const counted = list.has(key) || list.size < KEYS_PER_LIST ? key : OTHER;
  list.set(counted, (list.get(counted) ?? 0) + by);
}

/**
 * The traffic this process counted and has not written (or handed to its primary) yet, per site
 * and branch: counts by status class, and the paths, missing paths and referring hosts asked.
 */
export class TrafficTally {
  private pending = new Map<string, Map<string, Pending>>();

  record(visit: Visit) {
    const entry = this.entryOf(visit.siteId, visit.branch);
    countAnswer(entry.counts, visit.status, visit.bytes);
    if (visit.path !== null) {
      const path = visit.path.length > PATH_LENGTH ? visit.path.slice(0, PATH_LENGTH) : visit.path;
      if (visit.status === 404) bump(entry.lists.missing, path, 1);
      else if (visit.status < 400) bump(entry.lists.path, path, 1);
    }
    if (visit.referrer !== null && visit.status < 400) bump(entry.lists.referrer, visit.referrer, 1);
  }

  /** Adds what another process counted (a cluster worker's batch), or a batch that could not be written. */
  add(batch: readonly TrafficEntry[]) {
    for (const { siteId, branch, counts, lists } of batch) {
      const entry = this.entryOf(siteId, branch);
      addAnswerCounts(entry.counts, counts);
      for (const kind of Object.keys(lists) as TrafficListKind[])
        for (const [key, count] of lists[kind]) bump(entry.lists[kind], key, count);
    }
  }

  /** Everything counted since the last call, as plain data; the tally starts again empty. */
  take(): TrafficEntry[] {
    const taken = this.pending;
    this.pending = new Map();
    const batch: TrafficEntry[] = [];
    for (const [siteId, branches] of taken)
      for (const [branch, { counts, lists }] of branches)
        batch.push({
          siteId,
          branch,
          counts,
          lists: { path: [...lists.path], missing: [...lists.missing], referrer: [...lists.referrer] },
        });
    return batch;
  }

  get size() {
    return this.pending.size;
  }

  private entryOf(siteId: string, branch: string) {
    let branches = this.pending.get(siteId);
    if (!branches) {
      branches = new Map();
      this.pending.set(siteId, branches);
    }
    let entry = branches.get(branch);
    if (!entry) {
      entry = emptyPending();
      branches.set(branch, entry);
    }
    return entry;
  }
}

/** The branch key a branch entry's traffic is counted under: every release's own address together. */
export const trafficBranchOf = (entryId: string) =>
  entryId.startsWith(RELEASE_ENTRY_PREFIX) ? RELEASE_ADDRESSES : entryId;

/** The path as a visitor asked it (decoded, with its slashes), from the edge's normalised form. */
export const pathAsked = (path: string, trailingSlash: boolean) =>
  path === '' ? '/' : `/${path}${trailingSlash ? '/' : ''}`;

/** The host of a `Referer` (no path, query or user: where a visitor came from, not what they read there). */
export function referrerHost(referer: string | undefined, ownHost: string): string | null {
  if (!referer) return null;
  const match = /^https?:\/\/(?:[^@/?#]*@)?(\[[^\]/?#]*\]|[^:/?#]+)/i.exec(referer);
  const host = match?.[1]?.toLowerCase();
  if (!host || host === ownHost || host.length > 253) return null;
  return host;
}
