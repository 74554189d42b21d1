import type { RouteName } from '@wharf/contract';
import type { AccessRule } from './accessFixtures.ts';
import { buildRules } from './accessRulesBuilds.ts';
import { cliLoginRules } from './accessRulesCliLogins.ts';
import { orgRules } from './accessRulesOrgs.ts';
import { repositoryRules } from './accessRulesRepositories.ts';
import { siteRules } from './accessRulesSites.ts';
import type { TestClient } from './client.ts';

export type { AccessRule, Call } from './accessFixtures.ts';

/** The access rule of every implemented route: who gets a 2xx, with a valid call and its events. */
export function accessRules(joiner: TestClient): Partial<Record<RouteName, AccessRule>> {
  return { ...orgRules(joiner), ...siteRules(), ...repositoryRules(), ...buildRules(), ...cliLoginRules() };
}
