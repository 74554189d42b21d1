import { Skeleton } from '@mantine/core';
import { Suspense } from 'react';
import { Outlet, Route, Routes } from 'react-router';
import { DefaultTab } from '../components/DefaultTab.tsx';
import { NotFound } from '../components/NotFound.tsx';
import { Access } from './Access.tsx';
import { Initialized } from './Initialized.tsx';
import { Layout } from './Layout.tsx';
import {
  AddApiTokenPage,
  ApiTokenPage,
  ApiTokensPage,
  AuditLogTab,
  CliLoginPage,
  InvitePage,
  LegalPage,
  LoginPage,
  OrgAdminPage,
  OrgHooksTab,
  OrgSettingsTab,
  OrgsPage,
  SecurityPage,
  SitePage,
  StaffTab,
  TeamPage,
  TeamsPage,
  UserHooksTab,
  UserSettingsPage,
} from './pages.ts';

function Lazy() {
  return (
    <Suspense fallback={<Skeleton h={240} />}>
      <Outlet />
    </Suspense>
  );
}

/** Every page of the console with its access rule (spec.md §2 'Shell and access rules'). */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Initialized />}>
        <Route element={<Access rule="signedOut" />}>
          <Route path="/login" element={<LoginPage />} />
        </Route>
        <Route element={<Layout />}>
          <Route element={<Lazy />}>
            <Route path="/legal/*" element={<LegalPage />} />
          </Route>
          <Route element={<Access rule="signedIn" />}>
            <Route path="/user" element={<UserSettingsPage />}>
              <Route index element={<DefaultTab tab="api-tokens" />} />
              <Route path="api-tokens" element={<ApiTokensPage />} />
              <Route element={<Lazy />}>
                <Route path="api-tokens/add" element={<AddApiTokenPage />} />
                <Route path="api-tokens/:apiTokenId" element={<ApiTokenPage />} />
              </Route>
              <Route path="security" element={<SecurityPage />} />
              <Route path="hooks/*" element={<UserHooksTab />} />
            </Route>
            <Route path="/invite" element={<InvitePage />} />
            <Route path="/cli-login/:cliLoginId" element={<CliLoginPage />} />
          </Route>
          <Route element={<Access rule="noOrg" />}>
            <Route path="/orgs" element={<OrgsPage />} />
          </Route>
          <Route element={<Access rule="org" />}>
            <Route index element={<TeamsPage />} />
            <Route path="/teams" element={<TeamsPage />} />
            <Route path="/teams/:teamId/*" element={<TeamPage />} />
            <Route path="/sites/:siteId/*" element={<SitePage />} />
          </Route>
          <Route element={<Access rule="admin" />}>
            <Route path="/org" element={<OrgAdminPage />}>
              <Route index element={<DefaultTab tab="settings" />} />
              <Route path="settings" element={<OrgSettingsTab />} />
              <Route path="staff" element={<StaffTab />} />
              <Route path="hooks/*" element={<OrgHooksTab />} />
              <Route path="audit" element={<AuditLogTab />} />
            </Route>
          </Route>
          <Route path="*" element={<NotFound />} />
        </Route>
      </Route>
    </Routes>
  );
}
