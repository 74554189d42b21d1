import { z } from 'zod';
import { paged } from '../entities/common.ts';
import { submission, submissionFilter, submissionsQuery } from '../entities/submission.ts';
import { noContent, route } from '../route.ts';
import { ids } from './params.ts';

export const listSubmissions = route({
  method: 'get',
  path: '/api/v1/sites/:siteId/submissions',
  scope: 'site_submission_list',
  summary: 'Form submissions of a site, newest first; the spam caught by the honeypot with `spam=true`',
  params: ids('siteId'),
  query: submissionsQuery,
  response: paged(submission),
});

export const exportSubmissions = route({
  method: 'get',
  path: '/api/v1/sites/:siteId/submissions.csv',
  scope: 'site_submission_list',
  summary:
    'Form submissions of a site as CSV (date, branch, form, then every field name), with the filters of the list',
  params: ids('siteId'),
  query: submissionFilter,
  response: z.string().describe('text/csv'),
});

export const getSubmission = route({
  method: 'get',
  path: '/api/v1/sites/:siteId/submissions/:submissionId',
  scope: 'site_submission_read',
  summary: 'One form submission',
  params: ids('siteId', 'submissionId'),
  response: submission,
});

export const deleteSubmission = route({
  method: 'delete',
  path: '/api/v1/sites/:siteId/submissions/:submissionId',
  scope: 'site_submission_delete',
  summary: 'Delete a form submission',
  params: ids('siteId', 'submissionId'),
  response: noContent,
});
