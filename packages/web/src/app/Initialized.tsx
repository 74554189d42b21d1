import { Button, Center, Stack } from '@mantine/core';
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
        <Stack maw={480}>
          <ErrorPanel title="Could not get user" error={user.error} />
          <Button variant="light" onClick={() => void user.refetch()}>
            Try again
          </Button>
        </Stack>
      </Center>
    );
  if (user.isPending || loading) return <Initializing />;
  return <Outlet />;
}
