import { z } from 'zod';
import { paged } from '../entities/common.ts';
import {
  createdInvite,
  createInviteBody,
  createOrgBody,
  currentMember,
  invite,
  inviteTokenBody,
  org,
  orgMember,
  receivedInvite,
  updateMemberBody,
  updateOrgBody,
} from '../entities/org.ts';
import { noContent, route } from '../route.ts';
import { pageQuery, requiredText, search } from '../validation.ts';
import { ids } from './params.ts';

export const listOrgs = route({
  method: 'get',
  path: '/api/v1/orgs',
  scope: 'org_list',
  summary: 'Organizations the user is a member of',
  response: z.array(org),
});

export const createOrg = route({
  method: 'post',
  path: '/api/v1/orgs',
  scope: 'org_create',
  summary: 'Create an organization; its creator becomes its owner',
  body: createOrgBody,
  response: org,
});

export const getOrg = route({
  method: 'get',
  path: '/api/v1/orgs/:orgId',
  scope: 'org_read',
  summary: 'One organization',
  params: ids('orgId'),
  response: org,
});

export const updateOrg = route({
  method: 'put',
  path: '/api/v1/orgs/:orgId',
  scope: 'org_update',
  summary: 'Rename or recolor an organization',
  params: ids('orgId'),
  body: updateOrgBody,
  response: org,
});

export const getCurrentMember = route({
  method: 'get',
  path: '/api/v1/orgs/:orgId/member',
  scope: 'member_read',
  summary: "The user's own membership of an organization",
  params: ids('orgId'),
  response: currentMember,
});

export const listMembers = route({
  method: 'get',
  path: '/api/v1/orgs/:orgId/members',
  scope: 'member_list',
  summary: 'Members of an organization',
  params: ids('orgId'),
  query: pageQuery.extend({ search }),
  response: paged(orgMember),
});

export const updateMember = route({
  method: 'put',
  path: '/api/v1/members/:memberId',
  scope: 'member_update',
  summary: "Grant or revoke a member's admin right",
  params: ids('memberId'),
  body: updateMemberBody,
  response: orgMember,
});

export const deleteMember = route({
  method: 'delete',
  path: '/api/v1/members/:memberId',
  scope: 'member_delete',
  summary: 'Remove a member from an organization',
  params: ids('memberId'),
  response: noContent,
});

export const listInvites = route({
  method: 'get',
  path: '/api/v1/orgs/:orgId/invites',
  scope: 'invite_list',
  summary: 'Pending invitations of an organization',
  params: ids('orgId'),
  response: z.array(invite),
});

export const createInvite = route({
  method: 'post',
  path: '/api/v1/orgs/:orgId/invites',
  scope: 'invite_create',
  summary: 'Invite someone by email; the answer holds the invite link',
  params: ids('orgId'),
  body: createInviteBody,
  response: createdInvite,
});

export const deleteInvite = route({
  method: 'delete',
  path: '/api/v1/orgs/:orgId/invites/:inviteId',
  scope: 'invite_delete',
  summary: 'Withdraw an invitation',
  params: ids('orgId', 'inviteId'),
  response: noContent,
});

export const getInvite = route({
  method: 'post',
  path: '/api/v1/invites/:token',
  scope: null,
  summary: 'The invitation a token stands for',
  params: z.object({ token: requiredText() }),
  body: inviteTokenBody,
  response: receivedInvite,
});

export const acceptInvite = route({
  method: 'put',
  path: '/api/v1/invites/:inviteId/accept',
  scope: null,
  summary: 'Accept an invitation and join its organization',
  params: ids('inviteId'),
  body: inviteTokenBody,
  response: org,
});

export const declineInvite = route({
  method: 'put',
  path: '/api/v1/invites/:inviteId/decline',
  scope: null,
  summary: 'Decline an invitation',
  params: ids('inviteId'),
  body: inviteTokenBody,
  response: noContent,
});
