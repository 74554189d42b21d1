/** The access rules of spec.md §2 'Shell and access rules', one per kind of route. */
export type AccessRule = 'signedOut' | 'signedIn' | 'noOrg' | 'org' | 'admin';

export interface Visitor {
  signedIn: boolean;
  hasOrg: boolean;
  isAdminOrOwner: boolean;
}

/** Where a visitor who may not see a route is sent, or null when they may see it. */
export function redirectFor(rule: AccessRule, visitor: Visitor): string | null {
  switch (rule) {
    case 'signedOut':
      return visitor.signedIn ? '/' : null;
    case 'signedIn':
      return visitor.signedIn ? null : '/login';
    case 'noOrg':
      return visitor.signedIn && !visitor.hasOrg ? null : '/login';
    case 'org':
      return visitor.signedIn && visitor.hasOrg ? null : '/orgs';
    case 'admin':
      return visitor.signedIn && visitor.hasOrg && visitor.isAdminOrOwner ? null : '/orgs';
  }
}
