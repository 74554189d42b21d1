import { api } from '@wharf/contract';
import { mustAdminOrg } from '../../access/rules.ts';
import type { WharfApp } from '../../wharfApp.ts';
import { listAuditLog } from './queries.ts';

/** The audit log: the organization's outbox, for its admins and owner. */
export function auditRoutes(app: WharfApp) {
  app.handle(api.listAuditLog, async ({ actor, params, query }) => {
    await mustAdminOrg(app.db, actor, params.orgId);
    return listAuditLog(app.db, params.orgId, query, query);
  });
}
