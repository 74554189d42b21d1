import type { EdgeLog } from './edgeLog.ts';

/** How soon a reload the database was away for is tried again. */
const RETRY_MS = 1_000;

/**
 * Sites whose reload failed because the database was away: read again a second later, with those
 * of other failed reloads, until it works, so that a change made just before an outage is not
 * missed by a routing table (nothing else would bring it until the site's next change).
 */
export class ReloadLater {
  private readonly due = new Set<string>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly reload: (siteIds: string[]) => Promise<void>,
    private readonly log: EdgeLog,
  ) {}

  add(siteIds: string[]) {
    for (const siteId of siteIds) this.due.add(siteId);
    if (this.timer) return;
    this.timer = setTimeout(() => this.retry(), RETRY_MS);
    this.timer.unref();
  }

  private retry() {
    this.timer = undefined;
    const siteIds = [...this.due];
    this.due.clear();
    // A failure again adds them back (the reload's own catch) for the next try.
    this.reload(siteIds).then(
      () => this.log.info({ sites: siteIds.length }, 'read again the sites a database outage had left behind'),
      () => undefined,
    );
  }
}
