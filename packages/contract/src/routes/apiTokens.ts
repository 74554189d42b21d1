import { z } from 'zod';
import { apiEndpoint, apiToken, createApiTokenBody, updateApiTokenBody } from '../entities/apiToken.ts';
import { noContent, route } from '../route.ts';
import { ids } from './params.ts';

// Token routes have no scope: a token can never mint or widen tokens. A token may only read
// and delete itself (what `wharf whoami` and `wharf logout` do).
export const listApiTokens = route({
  method: 'get',
  path: '/api/v1/api-tokens',
  scope: null,
  summary: "The user's API tokens, newest first",
  response: z.array(apiToken),
});

export const getApiToken = route({
  method: 'get',
  path: '/api/v1/api-tokens/:apiTokenId',
  scope: null,
  auth: 'ownToken',
  summary: 'One API token with its value',
  params: ids('apiTokenId'),
  response: apiToken,
});

export const createApiToken = route({
  method: 'post',
  path: '/api/v1/api-tokens',
  scope: null,
  summary: 'Create an API token',
  body: createApiTokenBody,
  response: apiToken,
});

export const updateApiToken = route({
  method: 'put',
  path: '/api/v1/api-tokens/:apiTokenId',
  scope: null,
  summary: 'Change an API token',
  params: ids('apiTokenId'),
  body: updateApiTokenBody,
  response: apiToken,
});

export const deleteApiToken = route({
  method: 'delete',
  path: '/api/v1/api-tokens/:apiTokenId',
  scope: null,
  auth: 'ownToken',
  summary: 'Delete an API token',
  params: ids('apiTokenId'),
  response: noContent,
});

export const listApiEndpoints = route({
  method: 'get',
  path: '/api/v1/api-endpoints',
  scope: null,
  summary: 'Every route of the API with the scope it needs',
  response: z.array(apiEndpoint),
});
