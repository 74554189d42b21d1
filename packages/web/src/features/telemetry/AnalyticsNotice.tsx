import { Affix, Button, CloseButton, Group, Paper, Text, Transition } from '@mantine/core';
import { useState } from 'react';
import { readStored, storageKeys, writeStored } from '../../lib/storage.ts';
import { useSystemEnv } from '../../lib/systemEnv.ts';

/** spec.md §4: a one-time notice that anonymous usage analytics are collected, with an opt-out. */
export function AnalyticsNotice() {
  const enabled = useSystemEnv().data?.analytics.enabled ?? false;
  const [hidden, setHidden] = useState(() => readStored(storageKeys.analyticsNotice) === 'hidden');

  const hide = (optOut: boolean) => {
    if (optOut) writeStored(storageKeys.analytics, 'off');
    writeStored(storageKeys.analyticsNotice, 'hidden');
    setHidden(true);
  };

  return (
    <Affix position={{ bottom: 16, left: 16 }} zIndex={150}>
      <Transition mounted={enabled && !hidden} transition="slide-up">
        {(style) => (
          <Paper
            style={style}
            shadow="lg"
            withBorder
            p="md"
            maw={380}
            role="region"
            aria-label="Usage analytics notice"
          >
            <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
              <Text size="sm">
                This Wharf installation collects anonymous usage analytics: how often each kind of console page is
                opened. Nothing in them identifies you or your sites.
              </Text>
              <CloseButton aria-label="Hide the analytics notice" onClick={() => hide(false)} />
            </Group>
            <Group justify="flex-end" mt="sm" gap="xs">
              <Button size="xs" variant="default" onClick={() => hide(true)}>
                Opt out
              </Button>
              <Button size="xs" onClick={() => hide(false)}>
                Got it
              </Button>
            </Group>
          </Paper>
        )}
      </Transition>
    </Affix>
  );
}
