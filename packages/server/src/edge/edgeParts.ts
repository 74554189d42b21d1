import type { Counters } from '../lib/counters.ts';
import type { Sealer } from '../lib/secrets.ts';
import type { SiteRequestTimer } from '../metrics/requestDurations.ts';
import type { OutboundGuard } from '../outbound/guard.ts';
import type { BlobReader } from '../storage/localFiles.ts';
import type { EdgeLog } from './edgeLog.ts';

/** What an edge works with besides the database and the configuration. */
export interface EdgeParts {
  /** The blob store the release files are read from (small ones are then kept in memory). */
  blobs: BlobReader;
  /** Every connection to an upstream goes through it. */
  outbound: OutboundGuard;
  /** Where password guesses and form submissions are counted (shared by every process with Redis). */
  counters: Counters;
  log: EdgeLog;
  /** Seals the mails of email forms, queued as jobs. */
  sealer: Sealer;
  /** Times each request, for the node's metrics. */
  timeRequest: SiteRequestTimer;
  /**
   * Told after the edge committed a form's submission (its event, its mail), so that a process
   * with a dispatcher and a job runner wakes them at once; cluster workers have neither, and
   * their primary polls.
   */
  afterCommit?: () => void;
}
