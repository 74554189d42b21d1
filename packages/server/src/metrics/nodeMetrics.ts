import { AggregatorRegistry, collectDefaultMetrics, Registry } from 'prom-client';
import { DurationHistogram } from './durationHistogram.ts';

/** One process's figures as prom-client hands them over: what a worker sends its primary. */
export type ProcessFigures = Awaited<ReturnType<Registry['getMetricsAsJSON']>>;

/** A cluster primary's way to its workers' figures: one list per worker that answered. */
export type PeerFigures = () => Promise<ProcessFigures[]>;

/** From a cached file (well under a millisecond) to a large upload (minutes). */
const DURATION_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120];

/**
 * Gauges of prom-client's defaults whose `_total` suffix Prometheus' naming rules keep for counters
 * (`promtool check metrics` refuses them): their series by type stay, and add up to the same.
 */
const MISNAMED_DEFAULTS = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
];

let processRegistry: Registry | undefined;

/**
 * CPU, memory, event-loop lag, garbage collection and handles: facts of the process, so measured
 * once per process however many Wharf apps it runs (tests run several side by side), from the
 * first app's start (garbage collections are counted as they happen).
 */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
    for (const name of MISNAMED_DEFAULTS) processRegistry.removeSingleMetric(name);
  }
  return processRegistry;
}

/**
 * The figures of a node for Prometheus: this process's (its default metrics, its requests, and
 * what its features register), and in a cluster's primary its workers' too, added up as
 * prom-client's AggregatorRegistry adds up a cluster (sums; event-loop lag averaged; a figure a
 * metric declares otherwise, such as the earliest certificate expiry, as declared). So a scrape
 * sees the whole node, whichever process took the connection.
 */
export class NodeMetrics {
  readonly registry = new Registry();
  /** Requests answered, by route pattern (a site's requests: `site`), method and status class. */
  readonly requests = new DurationHistogram(
    'wharf_http_request_duration_seconds',
    'Time from a request to the end of its answer, by route pattern (site requests: route="site"), method and status class.',
    DURATION_BUCKETS,
  );
  private readonly peers: PeerFigures[] = [];
  private readonly ofProcess = processMetrics();

  constructor() {
    this.registry.registerMetric(this.requests.asPromMetric());
  }

  /** Figures of other processes of this node (a cluster's workers) to add to this one's. */
  addPeers(figures: PeerFigures) {
    this.peers.push(figures);
  }

  /** This process's figures alone, for the primary that adds them up. */
  async ownFigures(): Promise<ProcessFigures> {
    const [ofProcess, own] = await Promise.all([this.ofProcess.getMetricsAsJSON(), this.registry.getMetricsAsJSON()]);
    return [...ofProcess, ...own];
  }

  /** The node's figures in Prometheus' text format. */
  async prometheus(): Promise<string> {
    const [own, ...peers] = await Promise.all([this.ownFigures(), ...this.peers.map((figures) => figures())]);
    return AggregatorRegistry.aggregate([own, ...peers.flat()]).metrics();
  }
}
