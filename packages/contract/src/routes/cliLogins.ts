import {
  claimCliLoginBody,
  cliLogin,
  cliLoginClaim,
  startCliLoginBody,
  startedCliLogin,
} from '../entities/cliLogin.ts';
import { route } from '../route.ts';
import { ids } from './params.ts';

// `wharf login`: the CLI starts a request and polls with its secret; a signed-in person approves
// it in the console. No token may approve one: a token can never mint tokens.

export const startCliLogin = route({
  method: 'post',
  path: '/api/v1/cli-logins',
  scope: null,
  auth: 'public',
  summary: 'Start a sign-in of the wharf command, to be approved in the console',
  body: startCliLoginBody,
  response: startedCliLogin,
});

export const getCliLogin = route({
  method: 'get',
  path: '/api/v1/cli-logins/:cliLoginId',
  scope: null,
  summary: 'A sign-in of the wharf command waiting for approval',
  params: ids('cliLoginId'),
  response: cliLogin,
});

export const approveCliLogin = route({
  method: 'post',
  path: '/api/v1/cli-logins/:cliLoginId/approve',
  scope: null,
  summary: 'Approve a sign-in of the wharf command: it gets an API token of the signed-in user',
  params: ids('cliLoginId'),
  response: cliLogin,
});

export const cancelCliLogin = route({
  method: 'post',
  path: '/api/v1/cli-logins/:cliLoginId/cancel',
  scope: null,
  summary: 'Refuse a sign-in of the wharf command',
  params: ids('cliLoginId'),
  response: cliLogin,
});

export const claimCliLogin = route({
  method: 'post',
  path: '/api/v1/cli-logins/:cliLoginId/token',
  scope: null,
  auth: 'public',
  summary:
    "The wharf command's poll, with the secret it started with: waiting, or its token (once; the poll that took it, sent again with its Idempotency-Key, gets it again until the request expires)",
  params: ids('cliLoginId'),
  body: claimCliLoginBody,
  response: cliLoginClaim,
});
