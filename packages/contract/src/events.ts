/** Every hook event name of spec.md §3, by the context whose hooks may subscribe to it. */
export const userEvents = ['user_api_token_created', 'user_api_token_updated', 'user_api_token_deleted'] as const;

export const orgEvents = [
  'org_created',
  'org_updated',
  'org_logo_set',
  'org_logo_removed',
  'org_invite_added',
  'org_invite_deleted',
  'org_invite_accepted',
  'org_invite_declined',
  'org_member_joined',
  'org_member_updated',
  'org_member_deleted',
  'org_hook_created',
  'org_hook_updated',
  'org_hook_deleted',
] as const;

export const teamEvents = [
  'team_added',
  'team_updated',
  'team_deleted',
  'team_logo_set',
  'team_logo_removed',
  'team_member_added',
  'team_member_deleted',
  'team_hook_created',
  'team_hook_updated',
  'team_hook_deleted',
] as const;

export const siteEvents = [
  'site_added',
  'site_updated',
  'site_logo_set',
  'site_logo_removed',
  'site_deleted',
  'site_password_set',
  'site_password_removed',
  'site_hook_created',
  'site_hook_updated',
  'site_hook_deleted',
  'site_token_added',
  'site_token_deleted',
  'site_repository_connected',
  'site_repository_updated',
  'site_repository_disconnected',
  'site_deploy_key_renewed',
  'site_repository_set_up_at_forge',
  'site_forge_token_set',
  'site_forge_token_removed',
  'site_ssh_host_key_forgotten',
  'site_webhook_secret_renewed',
  'site_build_queued',
  'site_build_started',
  'site_build_succeeded',
  'site_build_failed',
  'site_build_cancelled',
  'site_build_hook_created',
  'site_build_hook_deleted',
  'site_build_cache_cleared',
  'site_build_variable_created',
  'site_build_variable_updated',
  'site_build_variable_deleted',
  'site_release_created',
  'site_release_renamed',
  'site_release_deleted',
  'site_release_password_set',
  'site_release_password_removed',
  'site_deploy_failed',
  'site_branch_added',
  'site_branch_updated',
  'site_branch_deleted',
  'site_branch_release_set',
  'site_branch_password_set',
  'site_branch_password_removed',
  'site_branch_redirects_set',
  'form_submitted',
] as const;

export const eventNames = [...userEvents, ...orgEvents, ...teamEvents, ...siteEvents] as const;
export type EventName = (typeof eventNames)[number];

export const hookContexts = ['orgs', 'teams', 'sites', 'users'] as const;
export type HookContext = (typeof hookContexts)[number];

/**
 * The events a hook of each context can subscribe to: an organization hook hears everything that
 * happens in the organization, a team hook its team and the team's sites, a site hook its site, and
 * a user's own hook what happens to the user: their API tokens, and the organizations they create
 * (no organization hook can hear of its own creation).
 */
export const hookEventsByContext: Record<HookContext, readonly EventName[]> = {
  orgs: [...orgEvents, ...teamEvents, ...siteEvents],
  teams: [...teamEvents, ...siteEvents],
  sites: siteEvents,
  users: [...userEvents, 'org_created'],
};
