import type { AnswerCountColumns } from '../../db/tables/sites.ts';

/** What is counted of the answers to a site or branch, as the traffic tables store it. */
export type AnswerCounts = AnswerCountColumns;

export const emptyAnswerCounts = (): AnswerCounts => ({
  requests: 0,
  bytes: 0,
  status_2xx: 0,
  status_3xx: 0,
  status_4xx: 0,
  status_5xx: 0,
});

export const COUNTED = Object.keys(emptyAnswerCounts()) as (keyof AnswerCounts)[];

const CLASSES = ['status_2xx', 'status_2xx', 'status_2xx', 'status_3xx', 'status_4xx', 'status_5xx'] as const;
/** A 1xx (never a final answer here) counts with 2xx, anything past 5xx with 5xx. */
const statusClass = (status: number) => CLASSES[Math.min(5, Math.max(2, Math.floor(status / 100)))]!;

export function countAnswer(counters: AnswerCounts, status: number, bytes: number) {
  counters.requests += 1;
  counters.bytes += bytes;
  counters[statusClass(status)] += 1;
}

export function addAnswerCounts(into: AnswerCounts, counts: AnswerCounts) {
  for (const key of COUNTED) into[key] += counts[key];
}

/** The counters as the API shows them. */
export const answerCountsView = (c: AnswerCounts) => ({
  requests: Number(c.requests),
  bytes: Number(c.bytes),
  status: {
    '2xx': Number(c.status_2xx),
    '3xx': Number(c.status_3xx),
    '4xx': Number(c.status_4xx),
    '5xx': Number(c.status_5xx),
  },
});
