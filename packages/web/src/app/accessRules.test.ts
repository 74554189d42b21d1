import { describe, expect, it } from 'vitest';
import { type AccessRule, redirectFor, type Visitor } from './accessRules.ts';

const signedOut: Visitor = { signedIn: false, hasOrg: false, isAdminOrOwner: false };
const withoutOrg: Visitor = { signedIn: true, hasOrg: false, isAdminOrOwner: false };
const member: Visitor = { signedIn: true, hasOrg: true, isAdminOrOwner: false };
const admin: Visitor = { signedIn: true, hasOrg: true, isAdminOrOwner: true };

// spec.md §2 'Shell and access rules', row by row.
const table: [AccessRule, Visitor, string | null][] = [
  ['signedOut', signedOut, null],
  ['signedOut', withoutOrg, '/'],
  ['signedIn', signedOut, '/login'],
  ['signedIn', withoutOrg, null],
  ['noOrg', signedOut, '/login'],
  ['noOrg', withoutOrg, null],
  ['noOrg', member, '/login'],
  ['org', signedOut, '/orgs'],
  ['org', withoutOrg, '/orgs'],
  ['org', member, null],
  ['admin', withoutOrg, '/orgs'],
  ['admin', member, '/orgs'],
  ['admin', admin, null],
];

describe('redirectFor', () => {
  it.each(table)('rule %s sends %o to %s', (rule, visitor, target) => {
    expect(redirectFor(rule, visitor)).toBe(target);
  });
});
