import { z } from 'zod';
import { branch } from '../entities/branch.ts';
import { paged } from '../entities/common.ts';
import { createDeployBody, deploy, deployBase, sha256 } from '../entities/deploy.ts';
import { formsBody } from '../entities/form.ts';
import { deployedRelease, failedDeploy, release, releaseFile } from '../entities/release.ts';
import { passwordBody } from '../entities/site.ts';
import { noContent, route } from '../route.ts';
import { uploadRoutes } from '../uploadRoutes.ts';
import { id, name, pageQuery, search } from '../validation.ts';
import { ids } from './params.ts';

export const listReleases = route({
  method: 'get',
  path: '/api/v1/sites/:siteId/releases',
  scope: 'release_list',
  auth: 'upload',
  summary: 'Releases of a site, newest first; `branch` keeps those the branch has pointed at',
  params: ids('siteId'),
  query: pageQuery.extend({ search, branch: id.optional() }),
  response: paged(release),
});

export const listFailedDeploys = route({
  method: 'get',
  path: '/api/v1/sites/:siteId/deploys/failed',
  scope: 'release_list',
  auth: 'upload',
  summary: 'Deploys of a site that ended without a release, newest first, with their reason and log (kept 30 days)',
  params: ids('siteId'),
  query: pageQuery,
  response: paged(failedDeploy),
});

export const uploadRelease = route({
  ...uploadRoutes.uploadRelease,
  scope: 'release_create',
  auth: 'upload',
  summary: 'Upload a release: multipart with a tar.gz `file`, a release `name` and `branches` to point at it',
  params: ids('siteId'),
  multipart: true,
  idempotent: true,
  response: deployedRelease,
});

export const getDeployBase = route({
  ...uploadRoutes.getDeployBase,
  scope: 'release_create',
  auth: 'upload',
  summary:
    'What an incremental deploy may be relative to: the files of the release a branch serves (the main branch when none is named), and the content codings the deploy routes take',
  params: ids('siteId'),
  query: z.object({ branch: name.optional() }),
  response: deployBase,
});

export const createDeploy = route({
  ...uploadRoutes.createDeploy,
  scope: 'release_create',
  auth: 'upload',
  summary: 'Start an incremental deploy: post the manifest, get back the hashes the server lacks',
  params: ids('siteId'),
  body: createDeployBody,
  idempotent: true,
  // A manifest of 100,000 files at about 130 bytes each.
  bodyLimit: 32 * 1024 * 1024,
  response: deploy,
});

export const uploadDeployFile = route({
  ...uploadRoutes.uploadDeployFile,
  scope: 'release_create',
  auth: 'upload',
  summary:
    "Upload one missing file of a deploy (raw bytes, checked against the hash; `Content-Encoding` one of the base's `encodings` or none)",
  params: z.object({ deployId: id, hash: sha256 }),
  binaryBody: 'application/octet-stream',
  response: noContent,
});

export const uploadDeployFiles = route({
  ...uploadRoutes.uploadDeployFiles,
  scope: 'release_create',
  auth: 'upload',
  summary:
    "Upload several missing files of a deploy in one request: a tar (application/x-tar) whose entries are named by their sha256, compressed with one of the base's `encodings` or not",
  params: ids('deployId'),
  binaryBody: 'application/x-tar',
  response: noContent,
});

export const finalizeDeploy = route({
  ...uploadRoutes.finalizeDeploy,
  scope: 'release_create',
  auth: 'upload',
  summary: 'Finish a deploy: create the release and point its branches at it',
  params: ids('deployId'),
  response: deployedRelease,
});

export const getRelease = route({
  method: 'get',
  path: '/api/v1/releases/:releaseId',
  scope: 'release_read',
  summary: 'One release',
  params: ids('releaseId'),
  response: release,
});

export const publishRelease = route({
  method: 'post',
  path: '/api/v1/releases/:releaseId/publish',
  scope: 'site_branch_release',
  auth: 'upload',
  summary:
    "Point a branch at the release (a draft's publication, or a roll back): the site's main branch when none is named; a branch of that name is created when the site has none",
  params: ids('releaseId'),
  body: z.object({ branch: name.optional() }),
  response: branch,
});

export const listReleaseFiles = route({
  method: 'get',
  path: '/api/v1/releases/:releaseId/files',
  scope: 'release_read',
  summary: 'The files of a release by path, with their sizes and stored encodings; `search` keeps paths holding it',
  params: ids('releaseId'),
  query: pageQuery.extend({ search }),
  response: paged(releaseFile),
});

export const downloadRelease = route({
  method: 'get',
  path: '/api/v1/releases/:releaseId/archive',
  scope: 'release_read',
  summary: "The release's files as a tar.gz, as it was uploaded (its `_redirects`, `_headers` and `.wharf.yml` too)",
  params: ids('releaseId'),
  response: z.string().describe('application/gzip'),
});

export const renameRelease = route({
  method: 'put',
  path: '/api/v1/releases/:releaseId',
  scope: 'release_update',
  summary: 'Rename a release',
  params: ids('releaseId'),
  body: z.object({ name }),
  response: release,
});

export const setReleasePassword = route({
  method: 'put',
  path: '/api/v1/releases/:releaseId/password',
  scope: 'release_update',
  summary: "Protect the release's own address with a password of its own (its branches keep theirs)",
  params: ids('releaseId'),
  body: passwordBody,
  response: release,
});

export const removeReleasePassword = route({
  method: 'delete',
  path: '/api/v1/releases/:releaseId/password',
  scope: 'release_update',
  summary: "Remove the release's own password: its address asks for the site's, if any",
  params: ids('releaseId'),
  response: release,
});

export const deleteRelease = route({
  method: 'delete',
  path: '/api/v1/releases/:releaseId',
  scope: 'release_delete',
  summary: 'Delete a release no branch points at',
  params: ids('releaseId'),
  response: noContent,
});

export const setReleaseForms = route({
  method: 'put',
  path: '/api/v1/releases/:releaseId/forms',
  scope: 'release_forms',
  summary:
    "Set the site's forms as the branches serving the release see them: forms belong to the site and survive deploys",
  params: ids('releaseId'),
  body: formsBody,
  response: release,
});
