import { api } from '@wharf/contract';
import type { WharfApp } from '../../wharfApp.ts';
import { listAuditLog } from './queries.ts';

/** The audit log: the organization's outbox, for its admins and owner. */
export function auditRoutes(app: WharfApp) {
  app.handle(api.listAuditLog, app.access.orgAdmin, async ({ params, query }) => {
    return listAuditLog(app.db, params.orgId, query, query);
  });
}
