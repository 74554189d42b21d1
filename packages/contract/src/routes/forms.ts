import { z } from 'zod';
import { siteForm, siteFormsBody } from '../entities/form.ts';
import { route } from '../route.ts';
import { ids } from './params.ts';

export const listSiteForms = route({
  method: 'get',
  path: '/api/v1/sites/:siteId/forms',
  scope: 'site_read',
  summary: 'Forms of a site, with the branches each is narrowed to and whether an upload found it in the HTML',
  params: ids('siteId'),
  response: z.array(siteForm),
});

export const setSiteForms = route({
  method: 'put',
  path: '/api/v1/sites/:siteId/forms',
  scope: 'site_forms',
  summary:
    'Replace the forms of a site; `branches` narrows a form to those branches (absent or null: every branch). A form kept unchanged stays marked as detected',
  params: ids('siteId'),
  body: siteFormsBody,
  response: z.array(siteForm),
});

export const listBranchForms = route({
  method: 'get',
  path: '/api/v1/sites/:siteId/branches/:branchId/forms',
  scope: 'site_branch_read',
  summary: 'The forms of a site that a branch accepts posts to: those of every branch and those narrowed to it',
  params: ids('siteId', 'branchId'),
  response: z.array(siteForm),
});
