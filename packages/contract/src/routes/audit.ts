import { auditEntry, auditQuery } from '../entities/audit.ts';
import { paged } from '../entities/common.ts';
import { route } from '../route.ts';
import { ids } from './params.ts';

export const listAuditLog = route({
  method: 'get',
  path: '/api/v1/orgs/:orgId/audit',
  scope: 'org_audit_read',
  summary: 'What happened in an organization, newest first; filters by team, site, actor and event',
  params: ids('orgId'),
  query: auditQuery,
  response: paged(auditEntry),
});
