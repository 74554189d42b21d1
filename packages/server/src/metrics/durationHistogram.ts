import type { Metric } from 'prom-client';

type Labels = { route: string; method: string; status: string };

/** One figure as prom-client's registries hand them over (`getMetricsAsJSON`). */
interface Figure {
  metricName: string;
  labels: Labels | ({ le: number | '+Inf' } & Labels);
  value: number;
}

interface Series {
  labels: Labels;
  /** Observations per bucket, not yet cumulative: the last slot counts those above every bound. */
  counts: Float64Array;
  sum: number;
  count: number;
}

/**
 * A histogram of durations by route, method and status, read by prom-client's registries as one
 * of their own (`get()` answers the same figures a prom-client Histogram does, so a cluster's
 * primary adds the workers' up as it does any histogram).
 *
 * Recording one is a Map lookup and three additions. prom-client's Histogram checks, hashes and
 * copies the labels at every observation, and its timer allocates two closures: measured at 5% of
 * an edge worker's CPU on a small cached page, where every answer is timed.
 */
export class DurationHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly series = new Map<string, Series>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly bounds: readonly number[],
  ) {}

  observe(route: string, method: string, status: string, seconds: number) {
    const key = `${route} ${method} ${status}`;
    let series = this.series.get(key);
    if (!series) {
      series = {
        labels: { route, method, status },
        counts: new Float64Array(this.bounds.length + 1),
        sum: 0,
        count: 0,
      };
      this.series.set(key, series);
    }
    let bucket = 0;
    while (bucket < this.bounds.length && seconds > this.bounds[bucket]!) bucket++;
    series.counts[bucket]! += 1;
    series.sum += seconds;
    series.count += 1;
  }

  async get() {
    const values: Figure[] = [];
    for (const { labels, counts, sum, count } of this.series.values()) {
      let cumulative = 0;
      this.bounds.forEach((bound, index) => {
        cumulative += counts[index]!;
        values.push({ metricName: `${this.name}_bucket`, labels: { le: bound, ...labels }, value: cumulative });
      });
      values.push({ metricName: `${this.name}_bucket`, labels: { le: '+Inf', ...labels }, value: count });
      values.push({ metricName: `${this.name}_sum`, labels, value: sum });
      values.push({ metricName: `${this.name}_count`, labels, value: count });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  /** The same figures, as prom-client's registries take a metric of their own kind. */
  asPromMetric(): Metric {
    return this as unknown as Metric;
  }
}
