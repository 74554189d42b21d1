import { api } from '@wharf/contract';
import { feature } from '../../features/feature.ts';
import type { PartsOf } from '../../features/parts.ts';
import { countPageViews } from './pageViews.ts';

const needs = ['access', 'config', 'db', 'handle'] as const;

function analyticsRoutes(parts: PartsOf<(typeof needs)[number]>) {
  parts.handle(api.recordPageViews, parts.access.person, async ({ body }) => {
    // With WHARF_ANALYTICS=off the console sends nothing; an older tab that still does is ignored.
    if (parts.config.analytics) await countPageViews(parts.db, body);
  });
}

/** Page views. */
export const analyticsFeature = feature({ name: 'analytics', needs, routes: analyticsRoutes });
