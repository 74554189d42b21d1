import { Box, Button, Group, getDefaultZIndex, Loader, Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconCloudOff, IconRefresh, IconSparkles } from '@tabler/icons-react';
import type { CSSProperties } from 'react';
import { putOffNewBuild } from '../lib/consoleBuild.ts';
import { type ConsoleNotice, useConsoleNotice } from '../lib/consoleNotice.ts';

const texts: Record<ConsoleNotice, { title: string; body: string }> = {
  chunkFailed: {
    title: 'Part of the console could not be loaded',
    body: 'Wharf may be out of reach, or it was upgraded since this page opened. Reload the page to carry on.',
  },
  newBuild: {
    title: 'A new version of Wharf is available',
    body: 'Reload the page to use it. What you typed on this page and did not save yet would be lost.',
  },
  reloading: { title: 'Loading the new version of Wharf…', body: 'Wharf was upgraded since this page opened.' },
};

/**
 * What breaks the page is told at the top, where one looks; an offer that can wait sits at the
 * bottom left, clear of the header, the page's title and the toasts (bottom right).
 */
const placeOf: Record<ConsoleNotice, CSSProperties> = {
  chunkFailed: { top: 12, left: '50%', transform: 'translateX(-50%)' },
  reloading: { top: 12, left: '50%', transform: 'translateX(-50%)' },
  newBuild: { bottom: 12, left: 12, maxWidth: 440 },
};

/**
 * Above every page, whatever failed below: made of the first screen's own code and styles, so it
 * shows when nothing else can load.
 */
export function ConsoleNoticeBar() {
  const notice = useConsoleNotice();
  if (!notice) return null;
  const { title, body } = texts[notice];
  const failed = notice === 'chunkFailed';
  return (
    <Box pos="fixed" w="min(560px, calc(100vw - 24px))" style={{ ...placeOf[notice], zIndex: getDefaultZIndex('max') }}>
      <Paper withBorder shadow="md" p="md" role={failed ? 'alert' : 'status'} aria-label={title}>
        <Group wrap="nowrap" align="flex-start" gap="md">
          <ThemeIcon size={40} radius="xl" variant="light" color={failed ? 'red' : 'harbour'}>
            {notice === 'reloading' ? (
              <Loader size={18} color="harbour" />
            ) : failed ? (
              <IconCloudOff size={22} />
            ) : (
              <IconSparkles size={22} />
            )}
          </ThemeIcon>
          <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
            <Text fw={600}>{title}</Text>
            <Text size="sm" c="dimmed">
              {body}
            </Text>
            {notice !== 'reloading' && (
              <Group gap="xs" mt={6}>
                <Button size="xs" leftSection={<IconRefresh size={14} />} onClick={() => window.location.reload()}>
                  Reload
                </Button>
                {notice === 'newBuild' && (
                  <Button size="xs" variant="default" onClick={putOffNewBuild}>
                    Later
                  </Button>
                )}
              </Group>
            )}
          </Stack>
        </Group>
      </Paper>
    </Box>
  );
}
