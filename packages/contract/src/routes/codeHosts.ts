import { z } from 'zod';
import { codeHostAccount, codeHostParams, codeHostRepositories } from '../entities/codeHost.ts';
import { noContent, route } from '../route.ts';

export const listCodeHostAccounts = route({
  method: 'get',
  path: '/api/v1/user/code-hosts',
  scope: null,
  summary:
    'The code hosts this installation signs in with, the signed-in user’s account at each and whether it may list repositories',
  response: z.array(codeHostAccount),
});

export const listCodeHostRepositories = route({
  method: 'get',
  path: '/api/v1/user/code-hosts/:provider/repositories',
  scope: null,
  summary:
    'The repositories the signed-in user’s account at a code host may read, last pushed first (after granting repository access)',
  params: codeHostParams,
  response: codeHostRepositories,
});

export const forgetRepositoryAccess = route({
  method: 'delete',
  path: '/api/v1/user/code-hosts/:provider/repository-access',
  scope: null,
  summary: 'Forget the access token that lists the account’s repositories (revoke it at the code host too)',
  params: codeHostParams,
  response: noContent,
});
