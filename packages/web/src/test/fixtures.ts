import { api, type CurrentMember, type Org, type SystemEnv, type User } from '@wharf/contract';
import { keyOf } from '../lib/api.ts';
import { userQuery } from '../lib/session.ts';
import type { KnownAnswer } from './renderWithData.tsx';

/** This installation as the console sees it; `oidcName` names the OpenID Connect button. */
export function systemEnv(oidcName: string | null = null): SystemEnv {
  return {
    url: 'https://wharf.example.com',
    sitesUrl: 'https://sites.example.com',
    version: '1',
    features: { httpsAuto: false, email: true, builds: false },
    signIn: { oidcName },
    crashReports: { dsn: null },
    analytics: { enabled: false },
  };
}

export function signedInUser(overrides: Partial<User> = {}): User {
  return {
    _id: 'u1',
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    provider: 'github',
    avatarUrl: null,
    canCreateOrgs: true,
    createdAt: '2026-01-05T10:00:00.000Z',
    ...overrides,
  };
}

export const acme: Org = {
  _id: 'o1',
  name: 'Acme',
  color: '#228be6',
  logo: null,
  createdAt: '2026-01-05T10:00:00.000Z',
};

/**
 * The answers of a user working in Acme: the console starts in the organization it stored, so
 * the caller stores Acme's id (and forgets it after the test).
 */
export function inAcme(user: User, member: CurrentMember): KnownAnswer[] {
  const params = { orgId: acme._id };
  return [
    [userQuery.queryKey, user],
    [keyOf(api.getOrg, { params }), acme],
    [keyOf(api.getCurrentMember, { params }), member],
  ];
}
