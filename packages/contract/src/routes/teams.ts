import { z } from 'zod';
import { paged } from '../entities/common.ts';
import { createSiteBody, site } from '../entities/site.ts';
import { addTeamMemberBody, createTeamBody, team, teamMember, updateTeamBody } from '../entities/team.ts';
import { noContent, route } from '../route.ts';
import { pageQuery } from '../validation.ts';
import { ids } from './params.ts';

export const listTeams = route({
  method: 'get',
  path: '/api/v1/orgs/:orgId/teams',
  scope: 'team_list',
  summary: 'Teams of an organization, newest first',
  params: ids('orgId'),
  query: pageQuery,
  response: paged(team),
});

export const createTeam = route({
  method: 'post',
  path: '/api/v1/orgs/:orgId/teams',
  scope: 'team_create',
  summary: 'Create a team',
  params: ids('orgId'),
  body: createTeamBody,
  response: team,
});

export const getTeam = route({
  method: 'get',
  path: '/api/v1/teams/:teamId',
  scope: 'team_read',
  summary: 'One team',
  params: ids('teamId'),
  response: team,
});

export const updateTeam = route({
  method: 'put',
  path: '/api/v1/teams/:teamId',
  scope: 'team_update',
  summary: 'Rename or recolor a team',
  params: ids('teamId'),
  body: updateTeamBody,
  response: team,
});

export const deleteTeam = route({
  method: 'delete',
  path: '/api/v1/teams/:teamId',
  scope: 'team_delete',
  summary: 'Delete a team and its sites',
  params: ids('teamId'),
  response: noContent,
});

export const listTeamSites = route({
  method: 'get',
  path: '/api/v1/teams/:teamId/sites',
  scope: 'site_list',
  summary: 'Sites of a team, newest first',
  params: ids('teamId'),
  response: z.array(site),
});

export const createSite = route({
  method: 'post',
  path: '/api/v1/teams/:teamId/sites',
  scope: 'site_create',
  summary: 'Create a site with its main branch',
  params: ids('teamId'),
  body: createSiteBody,
  response: site,
});

export const listTeamMembers = route({
  method: 'get',
  path: '/api/v1/teams/:teamId/members',
  scope: 'team_member_list',
  summary: 'Members of a team',
  params: ids('teamId'),
  response: z.array(teamMember),
});

export const addTeamMember = route({
  method: 'put',
  path: '/api/v1/teams/:teamId/members/:memberId',
  scope: 'team_member_add',
  summary: 'Add an organization member to a team',
  params: ids('teamId', 'memberId'),
  body: addTeamMemberBody,
  response: teamMember,
});

export const removeTeamMember = route({
  method: 'delete',
  path: '/api/v1/teams/:teamId/members/:memberId',
  scope: 'team_member_delete',
  summary: 'Remove a member from a team',
  params: ids('teamId', 'memberId'),
  response: noContent,
});
