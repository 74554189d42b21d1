import { api } from '@wharf/contract';
import { feature } from '../../features/feature.ts';
import type { PartsOf } from '../../features/parts.ts';
import { listAuditLog } from './queries.ts';

const needs = ['access', 'db', 'handle'] as const;

/** The audit log: the organization's outbox, for its admins and owner. */
function auditRoutes(parts: PartsOf<(typeof needs)[number]>) {
  parts.handle(api.listAuditLog, parts.access.orgAdmin, async ({ params, query }) => {
    return listAuditLog(parts.db, params.orgId, query, query);
  });
}

/** The organization's audit log. */
export const auditFeature = feature({ name: 'audit', needs, routes: auditRoutes });
