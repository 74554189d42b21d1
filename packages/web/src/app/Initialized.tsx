import { Box, Center } from '@mantine/core';
import { startTransition, useEffect, useState } from 'react';
import { Outlet } from 'react-router';
import { ErrorPanel } from '../components/ErrorPanel.tsx';
import { Initializing } from '../components/Initializing.tsx';
import { useCurrentOrgState } from '../lib/currentOrg.tsx';
import { markFirstPageShown, markSettled } from '../lib/firstPage.ts';
import { notifyFailure } from '../lib/notify.ts';
import { useUser } from '../lib/session.ts';

/**
 * True once `ready` is, a render later and in a transition: the first page then renders in slices
 * between which the browser stays responsive, not in one long task, and shows when complete.
 */
function useRevealed(ready: boolean) {
  const [revealed, setRevealed] = useState(false);
  useEffect(() => {
    if (ready) startTransition(() => setRevealed(true));
  }, [ready]);
  useEffect(() => {
    if (!revealed) return;
    // Once the browser is idle again, the page has been painted.
    if ('requestIdleCallback' in window) requestIdleCallback(markFirstPageShown);
    else setTimeout(markFirstPageShown, 100);
  }, [revealed]);
  return ready && revealed;
}

/** spec.md §2: 'Initializing' until the session and the current organization are known. */
export function Initialized() {
  const user = useUser();
  const { loading } = useCurrentOrgState();
  const revealed = useRevealed(!user.isPending && !loading);

  useEffect(() => {
    if (!user.error) return;
    notifyFailure('get user', user.error);
    // The error is what shows: no longer busy, it is read out.
    markSettled();
  }, [user.error]);

  // The page's main landmark: no layout is around it yet, and this panel is all the page has.
  if (user.error)
    return (
      <Center component="main" h="100dvh" p="md">
        <Box w="100%" maw={480}>
          <ErrorPanel title="Could not get user" query={user} />
        </Box>
      </Center>
    );
  if (!revealed) return <Initializing />;
  return <Outlet />;
}
