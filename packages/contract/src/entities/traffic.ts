import { z } from 'zod';

/** Requests, body bytes and requests per status class of some answers. */
export const answerCounts = z.object({
  requests: z.number(),
  bytes: z.number(),
  status: z.object({ '2xx': z.number(), '3xx': z.number(), '4xx': z.number(), '5xx': z.number() }),
});

export const trafficHour = answerCounts.extend({ hour: z.string() });
export type TrafficHour = z.infer<typeof trafficHour>;

/** The most counted keys of a list (paths, paths not found, referring hosts), and the sum of the others. */
const trafficList = z.object({
  items: z.array(z.object({ key: z.string(), requests: z.number() })),
  other: z.number(),
});
export type TrafficList = z.infer<typeof trafficList>;

export const trafficSummary = z.object({
  /** The first day counted (YYYY-MM-DD, UTC); the last is today. */
  since: z.string(),
  totals: answerCounts,
  days: z.array(answerCounts.extend({ day: z.string() })),
  /** Paths answered (not 4xx or 5xx), by requests. */
  paths: trafficList,
  /** Paths answered 404. */
  missing: trafficList,
  /** Hosts of the `Referer` of answered requests, other than the host asked. */
  referrers: trafficList,
  /** Every branch's share; `releases` counts the releases' own addresses, `deleted` a branch since deleted. */
  branches: z.array(
    z.object({
      branch: z.string(),
      name: z.string().nullable(),
      kind: z.enum(['branch', 'releases', 'deleted']),
      requests: z.number(),
      bytes: z.number(),
    }),
  ),
  /** Days the installation keeps traffic (WHARF_TRAFFIC_RETENTION_DAYS). */
  retentionDays: z.number(),
});
export type TrafficSummary = z.infer<typeof trafficSummary>;
