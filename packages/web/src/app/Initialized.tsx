import { Box, Center } from '@mantine/core';
import { useEffect } from 'react';
import { Outlet } from 'react-router';
import { ErrorPanel } from '../components/ErrorPanel.tsx';
import { Initializing } from '../components/Initializing.tsx';
import { useUser } from '../features/auth/session.ts';
import { useCurrentOrgState } from '../features/orgs/currentOrg.tsx';
import { notifyFailure } from '../lib/notify.ts';

/** spec.md §2: 'Initializing' until the session and the current organization are known. */
export function Initialized() {
  const user = useUser();
  const { loading } = useCurrentOrgState();

  useEffect(() => {
    if (user.error) notifyFailure('get user', user.error);
  }, [user.error]);

  if (user.error)
    return (
      <Center h="100dvh" p="md">
        <Box w="100%" maw={480}>
          <ErrorPanel title="Could not get user" query={user} />
        </Box>
      </Center>
    );
  if (user.isPending || loading) return <Initializing />;
  return <Outlet />;
}
