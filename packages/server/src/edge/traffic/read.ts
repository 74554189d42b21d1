import { sql } from 'kysely';
import type { Db } from '../../db/schema.ts';
import type { TrafficListKind } from '../../db/tables/sites.ts';
import { answerCountsView, emptyAnswerCounts } from './counters.ts';
import { OTHER, RELEASE_ADDRESSES } from './tally.ts';
import { dayOf } from './write.ts';

const DAY_MS = 86_400_000;
/** Rows of each list an answer shows; the rest is summed as `other`. */
const LIST_LENGTH = 20;

const summedColumns = [
  sql<number>`sum(requests)`.as('requests'),
  sql<number>`sum(bytes)`.as('bytes'),
  sql<number>`sum(status_2xx)`.as('status_2xx'),
  sql<number>`sum(status_3xx)`.as('status_3xx'),
  sql<number>`sum(status_4xx)`.as('status_4xx'),
  sql<number>`sum(status_5xx)`.as('status_5xx'),
];

/** The hourly rows of a site, or of one of its branches, since `since` (an ISO time). */
function hourlyRows(db: Db, siteId: string, since: string, branch: string | undefined) {
  // The two tables have the same columns but `branch`, which only a branch's query reads: one
  // query builder type serves both.
  const table = (branch === undefined ? 'site_traffic' : 'branch_traffic') as 'branch_traffic';
  const rows = db.selectFrom(table).where('site_id', '=', siteId).where('hour', '>=', since);
  return branch === undefined ? rows : rows.where('branch', '=', branch);
}

/** Requests, bytes and status classes per hour over the last `hours`. */
export async function trafficByHour(db: Db, siteId: string, hours: number, branch?: string, at = new Date()) {
  const since = new Date(at.getTime() - hours * 3600_000).toISOString();
  const rows = await hourlyRows(db, siteId, since, branch)
    .select(['hour', ...summedColumns])
    .groupBy('hour')
    .orderBy('hour')
    .execute();
  return rows.map((row) => ({ hour: row.hour, ...answerCountsView(row) }));
}

async function byDay(db: Db, siteId: string, sinceDay: string, branch: string | undefined) {
  const day = sql<string>`substr(hour, 1, 10)`;
  const rows = await hourlyRows(db, siteId, `${sinceDay}T00:00:00.000Z`, branch)
    .select([day.as('day'), ...summedColumns])
    .groupBy(day)
    .orderBy(day)
    .execute();
  return rows.map((row) => ({ day: row.day, ...answerCountsView(row) }));
}

async function topList(db: Db, siteId: string, sinceDay: string, branch: string | undefined, kind: TrafficListKind) {
  let rows = db
    .selectFrom('traffic_top')
    .where('site_id', '=', siteId)
    .where('day', '>=', sinceDay)
    .where('kind', '=', kind);
  if (branch !== undefined) rows = rows.where('branch', '=', branch);
  const total = sql<number>`sum(requests)`;
  const [top, all] = await Promise.all([
    rows
      .select(['key', total.as('requests')])
      .where('key', '<>', OTHER)
      .groupBy('key')
      .orderBy(total, 'desc')
      .orderBy('key')
      .limit(LIST_LENGTH)
      .execute(),
    rows.select(total.as('requests')).executeTakeFirst(),
  ]);
  const items = top.map((row) => ({ key: row.key, requests: Number(row.requests) }));
  const shown = items.reduce((sum, item) => sum + item.requests, 0);
  return { items, other: Number(all?.requests ?? 0) - shown };
}

async function branchesOf(db: Db, siteId: string, sinceDay: string) {
  const rows = await db
    .selectFrom('branch_traffic')
    .leftJoin('branches', 'branches.id', 'branch_traffic.branch')
    .where('branch_traffic.site_id', '=', siteId)
    .where('hour', '>=', `${sinceDay}T00:00:00.000Z`)
    .select([
      'branch_traffic.branch',
      'branches.name',
      sql<number>`sum(requests)`.as('requests'),
      sql<number>`sum(bytes)`.as('bytes'),
    ])
    .groupBy(['branch_traffic.branch', 'branches.name'])
    .orderBy(sql`sum(requests)`, 'desc')
    .execute();
  return rows.map((row) => ({
    branch: row.branch,
    // A release's own address, or a branch deleted since: named by what it is, not by an id.
    name: row.branch === RELEASE_ADDRESSES ? null : row.name,
    kind:
      row.branch === RELEASE_ADDRESSES ? ('releases' as const) : row.name ? ('branch' as const) : ('deleted' as const),
    requests: Number(row.requests),
    bytes: Number(row.bytes),
  }));
}

/** A site's (or branch's) traffic over the last `days` days, today included: per day, in all, and its lists. */
export async function trafficSummary(db: Db, siteId: string, days: number, branch?: string, at = new Date()) {
  const sinceDay = dayOf(new Date(at.getTime() - (days - 1) * DAY_MS));
  const [daily, paths, missing, referrers, branches] = await Promise.all([
    byDay(db, siteId, sinceDay, branch),
    topList(db, siteId, sinceDay, branch, 'path'),
    topList(db, siteId, sinceDay, branch, 'missing'),
    topList(db, siteId, sinceDay, branch, 'referrer'),
    branchesOf(db, siteId, sinceDay),
  ]);
  const totals = daily.reduce(
    (sum, day) => ({
      requests: sum.requests + day.requests,
      bytes: sum.bytes + day.bytes,
      status: {
        '2xx': sum.status['2xx'] + day.status['2xx'],
        '3xx': sum.status['3xx'] + day.status['3xx'],
        '4xx': sum.status['4xx'] + day.status['4xx'],
        '5xx': sum.status['5xx'] + day.status['5xx'],
      },
    }),
    answerCountsView(emptyAnswerCounts()),
  );
  return { since: sinceDay, totals, days: daily, paths, missing, referrers, branches };
}
