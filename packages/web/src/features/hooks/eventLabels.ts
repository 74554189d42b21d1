import type { EventName } from '@wharf/contract';

/** What an event is about, in the order the event picker shows them. */
export const eventEntities = [
  'Organization',
  'Invitations',
  'Members',
  'Teams',
  'Team members',
  'Sites',
  'Site tokens',
  'Releases',
  'Builds',
  'Branches',
  'Forms',
  'Hooks',
  'API tokens',
] as const;
export type EventEntity = (typeof eventEntities)[number];

const entry = (entity: EventEntity, label: string) => ({ entity, label });

/**
 * How the console names each hook event of spec.md §3. The API names stay what the console sends
 * and what deliveries carry; people choose among these. Typed by every event name, so that a new
 * event cannot reach the picker without a label.
 */
export const eventLabels: Record<EventName, { entity: EventEntity; label: string }> = {
  org_created: entry('Organization', 'Organization created'),
  org_updated: entry('Organization', 'Organization updated'),
  org_logo_set: entry('Organization', 'Logo set'),
  org_logo_removed: entry('Organization', 'Logo removed'),
  org_invite_added: entry('Invitations', 'Invitation sent'),
  org_invite_deleted: entry('Invitations', 'Invitation deleted'),
  org_invite_accepted: entry('Invitations', 'Invitation accepted'),
  org_invite_declined: entry('Invitations', 'Invitation declined'),
  org_member_joined: entry('Members', 'Member joined'),
  org_member_updated: entry('Members', 'Member updated'),
  org_member_deleted: entry('Members', 'Member removed'),
  team_added: entry('Teams', 'Team added'),
  team_updated: entry('Teams', 'Team updated'),
  team_deleted: entry('Teams', 'Team deleted'),
  team_logo_set: entry('Teams', 'Team logo set'),
  team_logo_removed: entry('Teams', 'Team logo removed'),
  team_member_added: entry('Team members', 'Team member added'),
  team_member_deleted: entry('Team members', 'Team member removed'),
  site_added: entry('Sites', 'Site added'),
  site_updated: entry('Sites', 'Site updated'),
  site_logo_set: entry('Sites', 'Site logo set'),
  site_logo_removed: entry('Sites', 'Site logo removed'),
  site_deleted: entry('Sites', 'Site deleted'),
  site_password_set: entry('Sites', 'Site password set'),
  site_password_removed: entry('Sites', 'Site password removed'),
  site_token_added: entry('Site tokens', 'Site token added'),
  site_token_deleted: entry('Site tokens', 'Site token deleted'),
  site_repository_connected: entry('Sites', 'Repository connected'),
  site_repository_updated: entry('Sites', 'Repository build settings changed'),
  site_repository_disconnected: entry('Sites', 'Repository disconnected'),
  site_deploy_key_renewed: entry('Sites', 'Deploy key replaced'),
  site_repository_set_up_at_forge: entry('Sites', 'Repository set up at its code host'),
  site_forge_token_set: entry('Sites', 'Forge access token set'),
  site_forge_token_removed: entry('Sites', 'Forge access token removed'),
  site_ssh_host_key_forgotten: entry('Sites', 'SSH host key forgotten'),
  site_webhook_secret_renewed: entry('Sites', 'Webhook secret replaced'),
  site_build_queued: entry('Builds', 'Build queued'),
  site_build_started: entry('Builds', 'Build started'),
  site_build_succeeded: entry('Builds', 'Build succeeded'),
  site_build_failed: entry('Builds', 'Build failed'),
  site_build_cancelled: entry('Builds', 'Build cancelled'),
  site_build_hook_created: entry('Builds', 'Build hook created'),
  site_build_hook_deleted: entry('Builds', 'Build hook deleted'),
  site_build_cache_cleared: entry('Builds', 'Build cache cleared'),
  site_build_variable_created: entry('Builds', 'Build variable added'),
  site_build_variable_updated: entry('Builds', 'Build variable changed'),
  site_build_variable_deleted: entry('Builds', 'Build variable deleted'),
  site_release_created: entry('Releases', 'Release uploaded'),
  site_release_renamed: entry('Releases', 'Release renamed'),
  site_release_deleted: entry('Releases', 'Release deleted'),
  site_release_password_set: entry('Releases', 'Release password set'),
  site_release_password_removed: entry('Releases', 'Release password removed'),
  site_deploy_failed: entry('Releases', 'Deploy failed'),
  site_branch_added: entry('Branches', 'Branch added'),
  site_branch_updated: entry('Branches', 'Branch updated'),
  site_branch_deleted: entry('Branches', 'Branch deleted'),
  site_branch_release_set: entry('Branches', 'Branch release changed'),
  site_branch_password_set: entry('Branches', 'Branch password set'),
  site_branch_password_removed: entry('Branches', 'Branch password removed'),
  site_branch_redirects_set: entry('Branches', 'Branch redirects saved'),
  form_submitted: entry('Forms', 'Form submitted'),
  org_hook_created: entry('Hooks', 'Organization hook created'),
  org_hook_updated: entry('Hooks', 'Organization hook updated'),
  org_hook_deleted: entry('Hooks', 'Organization hook deleted'),
  team_hook_created: entry('Hooks', 'Team hook created'),
  team_hook_updated: entry('Hooks', 'Team hook updated'),
  team_hook_deleted: entry('Hooks', 'Team hook deleted'),
  site_hook_created: entry('Hooks', 'Site hook created'),
  site_hook_updated: entry('Hooks', 'Site hook updated'),
  site_hook_deleted: entry('Hooks', 'Site hook deleted'),
  user_api_token_created: entry('API tokens', 'API token created'),
  user_api_token_updated: entry('API tokens', 'API token updated'),
  user_api_token_deleted: entry('API tokens', 'API token deleted'),
};

/**
 * Events that deliveries carry but no hook subscribes to, so the picker never offers them: the
 * `ping` of Send test.
 */
export const deliveryOnlyLabels: Record<string, { entity: EventEntity; label: string }> = {
  ping: entry('Hooks', 'Test (ping)'),
};

/** The label and entity of an event; one the console does not know yet keeps its API name. */
export function describeEvent(event: string): { entity: EventEntity | 'Other'; label: string } {
  if (Object.hasOwn(eventLabels, event)) return eventLabels[event as EventName];
  if (Object.hasOwn(deliveryOnlyLabels, event)) return deliveryOnlyLabels[event]!;
  return { entity: 'Other', label: event };
}
