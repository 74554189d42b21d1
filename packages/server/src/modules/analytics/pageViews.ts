import type { PageViews } from '@wharf/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/schema.ts';

/** Adds the views to today's counts; nothing about who viewed is kept. */
export async function countPageViews(db: Db, { views }: PageViews, at = new Date()) {
  const day = at.toISOString().slice(0, 10);
  const byPath = new Map<string, number>();
  for (const view of views) byPath.set(view.path, (byPath.get(view.path) ?? 0) + view.count);
  await db.transaction().execute(async (trx) => {
    for (const [path, count] of byPath) {
      await trx
        .insertInto('page_views')
        .values({ day, path, views: count })
        .onConflict((conflict) =>
          conflict.columns(['day', 'path']).doUpdateSet({ views: sql<number>`page_views.views + ${count}` }),
        )
        .execute();
    }
  });
}

/** Prometheus text of the views of every page shape since analytics began. */
export async function pageViewMetrics(db: Db) {
  const rows = await db
    .selectFrom('page_views')
    .select(['path', sql<number>`sum(views)`.as('views')])
    .groupBy('path')
    .orderBy('path')
    .execute();
  return [
    '# HELP wharf_console_page_views_total Views of console pages, by page shape (anonymous usage analytics).',
    '# TYPE wharf_console_page_views_total counter',
    ...rows.map((row) => `wharf_console_page_views_total{path="${row.path}"} ${Number(row.views)}`),
  ].join('\n');
}
