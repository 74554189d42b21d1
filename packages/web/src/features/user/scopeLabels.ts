import type { ScopeGroup } from '@wharf/contract';

export const scopeGroupLabels: Record<ScopeGroup, string> = {
  user: 'User',
  org: 'Organizations',
  member: 'Members',
  invite: 'Invites',
  team: 'Teams',
  site: 'Sites',
  release: 'Releases',
};
