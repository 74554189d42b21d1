import { matchPath } from 'react-router';
import { LiveSites } from '../features/home/liveSitesOnDemand.ts';
import { preloadable } from '../lib/chunks.ts';
import { sessionCookieAtLoad } from '../lib/sessionCookie.ts';

/** A page whose code loads when it is first shown: each screen downloads only what it uses. */
const page = preloadable;

/** A page beyond the first ones: it loads with all of Mantine's styles (components/allMantineStyles.ts). */
function fullPage<M, K extends keyof M>(load: () => Promise<M>, name: K) {
  const withStyles = () =>
    Promise.all([load(), import('../components/allMantineStyles.ts')]).then(([module]) => module);
  return page(withStyles, name);
}

export const AppLayout = page(() => import('./shell/AppLayout.tsx'), 'AppLayout');
export const PublicLayout = page(() => import('./shell/PublicLayout.tsx'), 'PublicLayout');
export const LoginPage = page(() => import('../features/auth/LoginPage.tsx'), 'LoginPage');
export const LegalPage = page(() => import('../features/legal/LegalPage.tsx'), 'LegalPage');
export const InvitePage = fullPage(() => import('../features/invite/InvitePage.tsx'), 'InvitePage');
export const CliLoginPage = fullPage(() => import('../features/cliLogin/CliLoginPage.tsx'), 'CliLoginPage');
export const OrgsPage = fullPage(() => import('../features/orgs/OrgsPage.tsx'), 'OrgsPage');
export const TeamsPage = page(() => import('../features/teams/TeamsPage.tsx'), 'TeamsPage');
export const TeamPage = fullPage(() => import('../features/teams/TeamPage.tsx'), 'TeamPage');
export const SitePage = fullPage(() => import('../features/sites/SitePage.tsx'), 'SitePage');
export const OrgAdminPage = fullPage(() => import('../features/orgAdmin/OrgAdminPage.tsx'), 'OrgAdminPage');
export const OrgSettingsTab = fullPage(() => import('../features/orgAdmin/OrgSettingsTab.tsx'), 'OrgSettingsTab');
export const StaffTab = fullPage(() => import('../features/orgAdmin/StaffTab.tsx'), 'StaffTab');
export const OrgHooksTab = fullPage(() => import('../features/hooks/OrgHooksTab.tsx'), 'OrgHooksTab');
export const AuditLogTab = fullPage(() => import('../features/orgAdmin/AuditLogTab.tsx'), 'AuditLogTab');
export const UserSettingsPage = fullPage(() => import('../features/user/UserSettingsPage.tsx'), 'UserSettingsPage');
export const ApiTokensPage = fullPage(() => import('../features/user/ApiTokensPage.tsx'), 'ApiTokensPage');
export const AddApiTokenPage = fullPage(() => import('../features/user/AddApiTokenPage.tsx'), 'AddApiTokenPage');
export const ApiTokenPage = fullPage(() => import('../features/user/ApiTokenPage.tsx'), 'ApiTokenPage');
export const SecurityPage = fullPage(() => import('../features/user/SecurityPage.tsx'), 'SecurityPage');
export const UserHooksTab = fullPage(() => import('../features/hooks/UserHooksTab.tsx'), 'UserHooksTab');

/** The pages a first load of each path shows, for a signed-in visitor (routes.tsx has the rules). */
const signedInPages: [pattern: string, pages: { preload: () => Promise<unknown> }[]][] = [
  ['/', [TeamsPage, LiveSites]],
  ['/teams', [TeamsPage, LiveSites]],
  ['/teams/:teamId/*', [TeamPage]],
  ['/sites/:siteId/*', [SitePage]],
  ['/orgs', [OrgsPage]],
  ['/invite', [InvitePage]],
  ['/cli-login/:cliLoginId', [CliLoginPage]],
  ['/legal/*', [LegalPage]],
  ['/org', [OrgAdminPage, OrgSettingsTab]],
  ['/org/settings', [OrgAdminPage, OrgSettingsTab]],
  ['/org/staff', [OrgAdminPage, StaffTab]],
  ['/org/hooks/*', [OrgAdminPage, OrgHooksTab]],
  ['/org/audit', [OrgAdminPage, AuditLogTab]],
  ['/user', [UserSettingsPage, ApiTokensPage]],
  ['/user/api-tokens', [UserSettingsPage, ApiTokensPage]],
  ['/user/api-tokens/add', [UserSettingsPage, AddApiTokenPage]],
  ['/user/api-tokens/:apiTokenId', [UserSettingsPage, ApiTokenPage]],
  ['/user/security', [UserSettingsPage, SecurityPage]],
  ['/user/hooks/*', [UserSettingsPage, UserHooksTab]],
];

/**
 * Starts loading the code of the page at `pathname` while the session is still being asked for,
 * instead of after: the page then shows one round trip sooner. Without a session cookie, every
 * page but the legal texts leads to the sign-in.
 */
export function preloadPageOf(pathname: string) {
  if (sessionCookieAtLoad === 'absent') {
    if (matchPath('/legal/*', pathname)) void Promise.all([PublicLayout.preload(), LegalPage.preload()]);
    else void LoginPage.preload();
    return;
  }
  if (matchPath('/login', pathname)) return;
  void AppLayout.preload();
  const found = signedInPages.find(([pattern]) => matchPath(pattern, pathname));
  for (const shown of found?.[1] ?? []) void shown.preload();
}
