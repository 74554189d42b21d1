import { mailFeature } from './mail/feature.ts';
import { analyticsFeature } from './modules/analytics/routes.ts';
import { apiTokensFeature } from './modules/apiTokens/routes.ts';
import { auditFeature } from './modules/audit/routes.ts';
import { authFeature } from './modules/auth/routes.ts';
import { branchesFeature } from './modules/branches/routes.ts';
import { buildsFeature } from './modules/builds/feature.ts';
import { cliFeature } from './modules/cli/routes.ts';
import { cliLoginsFeature } from './modules/cliLogins/routes.ts';
import { docsFeature } from './modules/docs/routes.ts';
import { formsFeature } from './modules/forms/routes.ts';
import { hooksFeature } from './modules/hooks/routes.ts';
import { invitesFeature } from './modules/invites/routes.ts';
import { logosFeature } from './modules/logos/routes.ts';
import { membersFeature } from './modules/members/routes.ts';
import { orgsFeature } from './modules/orgs/routes.ts';
import { releasesFeature } from './modules/releases/feature.ts';
import { repositoriesFeature } from './modules/repositories/routes.ts';
import { sitesFeature } from './modules/sites/feature.ts';
import { siteTokensFeature } from './modules/siteTokens/routes.ts';
import { submissionsFeature } from './modules/submissions/routes.ts';
import { systemFeature } from './modules/system/routes.ts';
import { teamsFeature } from './modules/teams/routes.ts';
import { realtimeFeature } from './realtime/realtime.ts';

/**
 * Every feature of a node but the edge's (app.ts adds it, with the edge it built), in the order
 * they register: a feature comes after those it names in `after` (checked at start).
 */
export const FEATURES = [
  mailFeature,
  systemFeature,
  analyticsFeature,
  authFeature,
  orgsFeature,
  membersFeature,
  invitesFeature,
  auditFeature,
  teamsFeature,
  sitesFeature,
  logosFeature,
  branchesFeature,
  releasesFeature,
  formsFeature,
  siteTokensFeature,
  repositoriesFeature,
  buildsFeature,
  submissionsFeature,
  apiTokensFeature,
  cliLoginsFeature,
  hooksFeature,
  docsFeature,
  cliFeature,
  realtimeFeature,
];
