import { z } from 'zod';
import {
  branch,
  branchNameBody,
  createBranchBody,
  redirect,
  redirectsBody,
  setBranchReleaseBody,
} from '../entities/branch.ts';
import { nameCheck } from '../entities/common.ts';
import { release } from '../entities/release.ts';
import { header, headers, passwordBody } from '../entities/site.ts';
import { noContent, route } from '../route.ts';
import { ids } from './params.ts';

const siteParams = ids('siteId');
const branchParams = ids('siteId', 'branchId');

export const listBranches = route({
  method: 'get',
  path: '/api/v1/sites/:siteId/branches',
  scope: 'site_branch_list',
  auth: 'upload',
  summary: 'Branches of a site, newest first',
  params: siteParams,
  response: z.array(branch),
});

export const createBranch = route({
  method: 'post',
  path: '/api/v1/sites/:siteId/branches',
  scope: 'site_branch_create',
  summary: 'Create a branch, optionally pointing at a release',
  params: siteParams,
  body: createBranchBody,
  response: branch,
});

export const validateBranchName = route({
  method: 'post',
  path: '/api/v1/sites/:siteId/branches.validate/name',
  scope: 'site_branch_create',
  summary: 'Whether a branch name is free in a site',
  params: siteParams,
  body: branchNameBody,
  response: nameCheck,
});

export const getBranch = route({
  method: 'get',
  path: '/api/v1/sites/:siteId/branches/:branchId',
  scope: 'site_branch_read',
  summary: 'One branch with its headers and current release',
  params: branchParams,
  response: branch.extend({ currentRelease: release.nullable() }),
});

export const deleteBranch = route({
  method: 'delete',
  path: '/api/v1/sites/:siteId/branches/:branchId',
  scope: 'site_branch_delete',
  auth: 'upload',
  summary: 'Delete a branch (not the main branch)',
  params: branchParams,
  response: noContent,
});

export const renameBranch = route({
  method: 'put',
  path: '/api/v1/sites/:siteId/branches/:branchId/name',
  scope: 'site_branch_update',
  summary: 'Rename a branch',
  params: branchParams,
  body: branchNameBody,
  response: branch,
});

export const setBranchRelease = route({
  method: 'put',
  path: '/api/v1/sites/:siteId/branches/:branchId/release',
  scope: 'site_branch_release',
  auth: 'upload',
  summary: 'Point a branch at a release (deploy or roll back)',
  params: branchParams,
  body: setBranchReleaseBody,
  response: branch,
});

export const setBranchPassword = route({
  method: 'put',
  path: '/api/v1/sites/:siteId/branches/:branchId/password',
  scope: 'site_branch_password',
  summary: 'Protect a branch with a password',
  params: branchParams,
  body: passwordBody,
  response: branch,
});

export const removeBranchPassword = route({
  method: 'delete',
  path: '/api/v1/sites/:siteId/branches/:branchId/password',
  scope: 'site_branch_password',
  summary: 'Remove the password of a branch',
  params: branchParams,
  response: branch,
});

export const getBranchRedirects = route({
  method: 'get',
  path: '/api/v1/sites/:siteId/branches/:branchId/redirects',
  scope: 'site_branch_read',
  summary: 'Redirect rules of a branch',
  params: branchParams,
  response: z.array(redirect),
});

export const setBranchRedirects = route({
  method: 'put',
  path: '/api/v1/sites/:siteId/branches/:branchId/redirects',
  scope: 'site_branch_redirects',
  summary: 'Replace the redirect rules of a branch',
  params: branchParams,
  body: redirectsBody,
  response: z.array(redirect),
});

export const setBranchHeaders = route({
  method: 'put',
  path: '/api/v1/sites/:siteId/branches/:branchId/headers',
  scope: 'site_branch_headers',
  summary: 'Set the headers of a branch; they override site headers of the same name',
  params: branchParams,
  body: z.object({ headers }),
  response: z.array(header),
});
