import { z } from 'zod';
import {
  build,
  buildHook,
  buildHookBody,
  buildHookCall,
  buildLog,
  buildVariable,
  buildVariableBody,
  buildVariableUpdate,
  createdBuildHook,
  startBuildBody,
} from '../entities/build.ts';
import { paged } from '../entities/common.ts';
import { noContent, route } from '../route.ts';
import { pageQuery } from '../validation.ts';
import { ids } from './params.ts';

export const listBuilds = route({
  method: 'get',
  path: '/api/v1/sites/:siteId/builds',
  scope: 'site_read',
  summary: 'The builds of a site, newest first',
  params: ids('siteId'),
  query: pageQuery,
  response: paged(build),
});

export const startBuild = route({
  method: 'post',
  path: '/api/v1/sites/:siteId/builds',
  scope: 'site_update',
  summary: 'Build a branch of the connected repository now (the production branch when none is named)',
  params: ids('siteId'),
  body: startBuildBody,
  status: 201,
  response: build,
});

export const getBuild = route({
  method: 'get',
  path: '/api/v1/sites/:siteId/builds/:buildId',
  scope: 'site_read',
  summary: 'A build: its commit, trigger, phases and outcome',
  params: ids('siteId', 'buildId'),
  response: build,
});

export const getBuildLog = route({
  method: 'get',
  path: '/api/v1/sites/:siteId/builds/:buildId/log',
  scope: 'site_read',
  summary: 'The lines of a build’s log after `after` (its secrets masked)',
  params: ids('siteId', 'buildId'),
  query: z.object({ after: z.coerce.number().int().min(0).default(0) }),
  response: buildLog,
});

export const cancelBuild = route({
  method: 'post',
  path: '/api/v1/sites/:siteId/builds/:buildId/cancel',
  scope: 'site_update',
  summary: 'Cancel a build that is queued or running',
  params: ids('siteId', 'buildId'),
  response: build,
});

export const retryBuild = route({
  method: 'post',
  path: '/api/v1/sites/:siteId/builds/:buildId/retry',
  scope: 'site_update',
  summary: 'Build the same commit again, as a new build',
  params: ids('siteId', 'buildId'),
  status: 201,
  response: build,
});

export const clearBuildCache = route({
  method: 'delete',
  path: '/api/v1/sites/:siteId/build-cache',
  scope: 'site_update',
  summary: 'Forget what builds of the site keep between them (package caches, node_modules)',
  params: ids('siteId'),
  response: noContent,
});

export const listBuildHooks = route({
  method: 'get',
  path: '/api/v1/sites/:siteId/build-hooks',
  scope: 'site_read',
  summary: 'The build hooks of a site (their addresses are shown once, when made)',
  params: ids('siteId'),
  response: z.array(buildHook),
});

export const createBuildHook = route({
  method: 'post',
  path: '/api/v1/sites/:siteId/build-hooks',
  scope: 'site_update',
  summary: 'Make a secret address that builds a branch when anything POSTs to it',
  params: ids('siteId'),
  body: buildHookBody,
  status: 201,
  response: createdBuildHook,
});

export const deleteBuildHook = route({
  method: 'delete',
  path: '/api/v1/sites/:siteId/build-hooks/:buildHookId',
  scope: 'site_update',
  summary: 'Delete a build hook: its address stops building at once',
  params: ids('siteId', 'buildHookId'),
  response: noContent,
});

export const callBuildHook = route({
  method: 'post',
  path: '/api/v1/build-hooks/:token',
  scope: null,
  auth: 'public',
  summary: 'Build the hook’s branch: the secret address a build hook gives (any body is ignored)',
  params: z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{20,64}$/, 'Not a build hook address') }),
  status: 202,
  response: buildHookCall,
});

export const listBuildVariables = route({
  method: 'get',
  path: '/api/v1/sites/:siteId/build-variables',
  scope: 'site_read',
  summary: 'The variables of the site’s builds (secret values are never answered)',
  params: ids('siteId'),
  response: z.array(buildVariable),
});

export const createBuildVariable = route({
  method: 'post',
  path: '/api/v1/sites/:siteId/build-variables',
  scope: 'site_update',
  summary:
    'Add a variable to the site’s builds, for every build or a context; a secret one is sealed and masked in logs',
  params: ids('siteId'),
  body: buildVariableBody,
  status: 201,
  response: buildVariable,
});

export const updateBuildVariable = route({
  method: 'put',
  path: '/api/v1/sites/:siteId/build-variables/:buildVariableId',
  scope: 'site_update',
  summary: 'Change a build variable’s value, context or secrecy (a secret keeps its value when none is given)',
  params: ids('siteId', 'buildVariableId'),
  body: buildVariableUpdate,
  response: buildVariable,
});

export const deleteBuildVariable = route({
  method: 'delete',
  path: '/api/v1/sites/:siteId/build-variables/:buildVariableId',
  scope: 'site_update',
  summary: 'Delete a build variable: builds from now on go without it',
  params: ids('siteId', 'buildVariableId'),
  response: noContent,
});
