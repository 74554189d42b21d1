// Every Mantine style: the signed-in pages use most components (the first pages' subset is in mantineStyles.css).
import '@mantine/core/styles.layer.css';
import { AppShell, Box } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { lazy, Suspense } from 'react';
import { Outlet } from 'react-router';
import { useCurrentOrgState } from '../../features/orgs/currentOrg.tsx';
import { Footer } from './Footer.tsx';
import { Header } from './Header.tsx';
import { Sidebar } from './Sidebar.tsx';

// The search loads after the page it opens over: the page does not wait for it.
const SiteSearch = lazy(() => import('../../features/sites/SiteSearch.tsx').then((m) => ({ default: m.SiteSearch })));

/** The console around every signed-in page: header, the sidebar when an organization is current, footer. */
export function AppLayout() {
  const { current } = useCurrentOrgState();
  const [opened, { toggle, close }] = useDisclosure(false);
  return (
    <AppShell
      header={{ height: 60 }}
      navbar={current ? { width: 272, breakpoint: 'sm', collapsed: { mobile: !opened } } : undefined}
      padding="md"
    >
      <AppShell.Header>
        <Header navbarOpened={opened} toggleNavbar={toggle} />
      </AppShell.Header>
      {current && (
        <AppShell.Navbar>
          <Sidebar onNavigate={close} />
        </AppShell.Navbar>
      )}
      <AppShell.Main style={{ display: 'flex', flexDirection: 'column' }}>
        <Box flex={1} w="100%" maw={1100} mx="auto" pt="sm">
          <Outlet />
        </Box>
        <Box w="100%" maw={1100} mx="auto">
          <Footer />
        </Box>
      </AppShell.Main>
      {current && (
        <Suspense fallback={null}>
          <SiteSearch />
        </Suspense>
      )}
    </AppShell>
  );
}
