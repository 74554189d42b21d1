import { allRoutes } from './routes/table.ts';

/** The groups of spec.md §3; a scope belongs to the group its name starts with. */
export const scopeGroups = ['user', 'org', 'member', 'invite', 'team', 'site', 'release'] as const;
export type ScopeGroup = (typeof scopeGroups)[number];

/** Every scope a route needs, in route order: the only scopes a token can hold. */
export const scopes: string[] = [
  ...new Set(allRoutes.map(([, route]) => route.scope).filter((scope): scope is string => scope !== null)),
];

export function scopeGroup(scope: string): ScopeGroup {
  const group = scopeGroups.find((name) => scope === name || scope.startsWith(`${name}_`));
  if (!group) throw new Error(`Scope ${scope} belongs to no group`);
  return group;
}

export function scopesOfGroup(group: ScopeGroup): string[] {
  return scopes.filter((scope) => scopeGroup(scope) === group);
}

export function isScope(value: string): boolean {
  return scopes.includes(value);
}
