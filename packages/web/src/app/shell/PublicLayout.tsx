import { Box, Container, Group, UnstyledButton } from '@mantine/core';
import { Link, Outlet } from 'react-router';
import { Brand } from '../../components/Brand.tsx';
import { PageBoundary } from '../CrashBoundary.tsx';
import { ColorSchemeToggle } from './ColorSchemeToggle.tsx';
import { Footer } from './Footer.tsx';

/** Pages a signed-out visitor may see besides the sign-in: legal texts and 'Not found'. */
export function PublicLayout() {
  return (
    <Container size="md" mih="100dvh" style={{ display: 'flex', flexDirection: 'column' }}>
      <Group justify="space-between" py="md">
        <UnstyledButton component={Link} to="/login" aria-label="Wharf sign-in">
          <Brand size={28} />
        </UnstyledButton>
        <ColorSchemeToggle />
      </Group>
      <Box component="main" flex={1} pt="md">
        <PageBoundary>
          <Outlet />
        </PageBoundary>
      </Box>
      <Footer />
    </Container>
  );
}
