import { z } from 'zod';
import { forgeSetupBody } from '../entities/codeHost.ts';
import { forgeTokenBody, repository, repositoryBody, webhookAnswer, webhookSecret } from '../entities/repository.ts';
import { noContent, route } from '../route.ts';
import { ids } from './params.ts';

export const getSiteRepository = route({
  method: 'get',
  path: '/api/v1/sites/:siteId/repository',
  scope: 'site_read',
  summary: 'The repository a site builds from and how, null when none is connected',
  params: ids('siteId'),
  response: repository.nullable(),
});

export const setSiteRepository = route({
  method: 'put',
  path: '/api/v1/sites/:siteId/repository',
  scope: 'site_update',
  summary: 'Connect a repository to a site, or change how it builds; the first connection makes its deploy key',
  params: ids('siteId'),
  body: repositoryBody,
  response: repository,
});

export const deleteSiteRepository = route({
  method: 'delete',
  path: '/api/v1/sites/:siteId/repository',
  scope: 'site_update',
  summary: 'Disconnect the repository: nothing builds any more, and its deploy key is forgotten',
  params: ids('siteId'),
  response: noContent,
});

export const renewDeployKey = route({
  method: 'post',
  path: '/api/v1/sites/:siteId/repository/deploy-key',
  scope: 'site_update',
  summary: 'Replace the deploy key of the repository with a new one (the old one stops working here at once)',
  params: ids('siteId'),
  response: repository,
});

export const getWebhookSecret = route({
  method: 'get',
  path: '/api/v1/sites/:siteId/repository/webhook-secret',
  scope: 'site_update',
  summary: 'The secret to give the forge with the webhook URL: it signs each delivery with it',
  params: ids('siteId'),
  response: webhookSecret,
});

export const renewWebhookSecret = route({
  method: 'post',
  path: '/api/v1/sites/:siteId/repository/webhook-secret',
  scope: 'site_update',
  summary:
    'Replace the webhook secret with a new one (deliveries signed with the old one are refused at once): give the forge the new one',
  params: ids('siteId'),
  response: webhookSecret,
});

export const setForgeToken = route({
  method: 'put',
  path: '/api/v1/sites/:siteId/repository/forge-token',
  scope: 'site_update',
  summary:
    'Give builds a forge access token: they set the commit status and keep one comment on each pull request up to date',
  params: ids('siteId'),
  body: forgeTokenBody,
  response: repository,
});

export const deleteForgeToken = route({
  method: 'delete',
  path: '/api/v1/sites/:siteId/repository/forge-token',
  scope: 'site_update',
  summary: 'Forget the forge access token: builds stop reporting to the forge',
  params: ids('siteId'),
  response: repository,
});

export const setUpRepositoryAtForge = route({
  method: 'post',
  path: '/api/v1/sites/:siteId/repository/forge-setup',
  scope: 'site_update',
  summary:
    'With the caller’s account at the code host (after granting repository access): add the webhook and the deploy key to the connected repository there; on GitHub, builds then report with that account unless a forge token is set',
  params: ids('siteId'),
  body: forgeSetupBody,
  response: repository,
});

export const forgetSshHostKey = route({
  method: 'delete',
  path: '/api/v1/sites/:siteId/repository/ssh-host-key',
  scope: 'site_update',
  summary:
    'Forget the SSH host key the first clone learnt (after the forge changed its key): the next clone learns the one shown then',
  params: ids('siteId'),
  response: repository,
});

export const receiveWebhook = route({
  method: 'post',
  path: '/api/v1/sites/:siteId/repository/webhook',
  scope: null,
  auth: 'public',
  summary:
    'A forge’s webhook (GitHub, GitLab, Gitea or Forgejo: push, pull or merge request), signed as the forge signs it; replays are refused',
  params: ids('siteId'),
  body: z.unknown(),
  formBody: true,
  // A push of many commits lists each with its files: GitHub sends up to 25 MB.
  bodyLimit: 25 * 1024 * 1024,
  status: 202,
  response: webhookAnswer,
});
