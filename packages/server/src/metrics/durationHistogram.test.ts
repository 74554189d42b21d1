import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { DurationHistogram } from './durationHistogram.ts';

const BOUNDS = [0.001, 0.01, 0.1, 1];

describe('the duration histogram', () => {
  it("gives prom-client's registries the figures a prom-client Histogram gives for the same observations", async () => {
    const ours = new DurationHistogram('durations', 'Durations.', BOUNDS);
    const theirs = new Histogram({
      name: 'durations',
      help: 'Durations.',
      labelNames: ['route', 'method', 'status'] as const,
      buckets: BOUNDS,
      registers: [],
    });
    const observations: [string, string, string, number][] = [
      ['site', 'GET', '2xx', 0.0004],
      ['site', 'GET', '2xx', 0.001],
      ['site', 'GET', '2xx', 0.05],
      ['site', 'HEAD', '3xx', 2],
      ['/api/v1/sites/:siteId', 'GET', '2xx', 0.02],
      ['site', 'GET', '2xx', 0.9],
    ];
    for (const [route, method, status, seconds] of observations) {
      ours.observe(route, method, status, seconds);
      theirs.observe({ route, method, status }, seconds);
    }
    const exposition = (metric: unknown) => {
      const registry = new Registry();
      registry.registerMetric(metric as Histogram);
      return registry.metrics();
    };
    expect(await exposition(ours.asPromMetric())).toBe(await exposition(theirs));
    // What a worker sends its primary, exemplars aside (Wharf records none).
    const figures = async (metric: unknown) => {
      const registry = new Registry();
      registry.registerMetric(metric as Histogram);
      const [json] = await registry.getMetricsAsJSON();
      const values = (json!.values as { metricName?: string; labels: object; value: number }[]).map(
        ({ metricName, labels, value }) => ({ metricName, labels, value }),
      );
      return { ...json, values };
    };
    expect(await figures(ours.asPromMetric())).toEqual(await figures(theirs));
  });
});
