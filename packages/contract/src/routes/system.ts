import { z } from 'zod';
import { authMethods, pageViewsBody, signInBody, systemEnv, systemInfo } from '../entities/system.ts';
import { identity, user } from '../entities/user.ts';
import { noContent, route } from '../route.ts';
import { ids } from './params.ts';

export const getSystemInfo = route({
  method: 'get',
  path: '/api/v1/system/info',
  scope: null,
  auth: 'public',
  summary: 'Version of the API',
  response: systemInfo,
});

export const getSystemEnv = route({
  method: 'get',
  path: '/api/v1/system/env',
  scope: null,
  auth: 'public',
  summary: 'What the console needs to know of this installation',
  response: systemEnv,
});

export const recordPageViews = route({
  method: 'post',
  path: '/api/v1/analytics/page-views',
  scope: null,
  summary: 'Count views of console pages by their shape (no ids, no user); ignored when analytics are off',
  body: pageViewsBody,
  response: noContent,
});

export const getOpenApi = route({
  method: 'get',
  path: '/api/v1/openapi.json',
  scope: null,
  auth: 'public',
  summary: 'OpenAPI document of every route',
  response: z.record(z.string(), z.unknown()),
});

export const getReleaseConfigSchema = route({
  method: 'get',
  path: '/api/v1/schemas/wharf.yml.json',
  scope: null,
  auth: 'public',
  summary: 'JSON Schema of .wharf.yml, the configuration at the root of an uploaded folder',
  response: z.record(z.string(), z.unknown()),
});

export const getAuthMethods = route({
  method: 'get',
  path: '/auth/methods',
  scope: null,
  auth: 'public',
  summary: 'Sign-in methods this installation offers',
  response: authMethods,
});

export const signInInMemory = route({
  method: 'post',
  path: '/auth/in-memory',
  scope: null,
  auth: 'public',
  summary: 'Sign in with a user name and password',
  body: signInBody,
  response: user,
});

export const signOut = route({
  method: 'post',
  path: '/auth/signout',
  scope: null,
  auth: 'public',
  summary: 'End this session',
  response: noContent,
});

export const getUser = route({
  method: 'get',
  path: '/api/v1/user',
  scope: 'user_read',
  summary: 'The signed-in user',
  response: user,
});

export const disconnectUser = route({
  method: 'put',
  path: '/api/v1/user/disconnect',
  scope: null,
  summary: 'End every session of the signed-in user',
  response: noContent,
});

export const listIdentities = route({
  method: 'get',
  path: '/api/v1/user/identities',
  scope: null,
  summary: 'The accounts the signed-in user signs in with (connected accounts)',
  response: z.array(identity),
});

export const unlinkIdentity = route({
  method: 'delete',
  path: '/api/v1/user/identities/:identityId',
  scope: null,
  summary: 'Disconnect one sign-in account of the signed-in user; the last one cannot be',
  params: ids('identityId'),
  response: noContent,
});
