import './shellStyles.css';
import { AppShell, Box } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Outlet } from 'react-router';
import { SiteSearchOnDemand } from '../../features/sites/SiteSearchOnDemand.tsx';
import { useCurrentOrgState } from '../../lib/currentOrg.tsx';
import { PageBoundary } from '../CrashBoundary.tsx';
import { Footer } from './Footer.tsx';
import { Header } from './Header.tsx';
import { Sidebar } from './Sidebar.tsx';

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
          <PageBoundary>
            <Outlet />
          </PageBoundary>
        </Box>
        <Box w="100%" maw={1100} mx="auto">
          <Footer />
        </Box>
      </AppShell.Main>
      {current && <SiteSearchOnDemand />}
    </AppShell>
  );
}
