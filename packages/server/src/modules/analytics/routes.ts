import { api } from '@wharf/contract';
import type { WharfApp } from '../../wharfApp.ts';
import { countPageViews } from './pageViews.ts';

export function analyticsRoutes(app: WharfApp) {
  app.handle(api.recordPageViews, app.access.person, async ({ body }) => {
    // With WHARF_ANALYTICS=off the console sends nothing; an older tab that still does is ignored.
    if (app.config.analytics) await countPageViews(app.db, body);
  });
}
