import { Button, Code, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBug, IconHome, IconRefresh } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { ErrorBoundary, type FallbackProps } from 'react-error-boundary';
import { useLocation } from 'react-router';
import { crashReportsStarted, reportCrash } from '../features/telemetry/crashReports.ts';
import { isChunkLoadError } from '../lib/chunks.ts';
import { errorText } from '../lib/notify.ts';

/**
 * What replaces a part of the console that failed to render: what happened, and two ways on.
 * Code that could not be loaded is no crash of the console: the notice above the page says it.
 */
function CrashNotice({ error }: FallbackProps) {
  if (isChunkLoadError(error)) return null;
  return (
    <Paper withBorder p="xl" role="alert" maw={640} mx="auto" my="xl">
      <Stack align="center" ta="center" gap="sm">
        <ThemeIcon size={52} radius="xl" variant="light" color="red">
          <IconBug size={26} />
        </ThemeIcon>
        <Title order={1} size="h3">
          This page failed to show
        </Title>
        <Text size="sm" c="dimmed" maw={460}>
          The console met an error it did not expect
          {crashReportsStarted() ? ' and sent a crash report about it' : ''}. Reload the page to try again, or go home.
        </Text>
        <Code block w="100%" ta="left" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {errorText(error)}
        </Code>
        <Group justify="center" mt="xs">
          <Button leftSection={<IconRefresh size={16} />} onClick={() => window.location.reload()}>
            Reload
          </Button>
          {/* A full load: whatever state led to the error is left behind. */}
          <Button component="a" href="/" variant="default" leftSection={<IconHome size={16} />}>
            Go home
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** Catches what its children throw while rendering, shows a way back, and reports it when reports are on. */
export function CrashBoundary({ children, resetKeys }: { children: ReactNode; resetKeys?: unknown[] }) {
  return (
    <ErrorBoundary
      FallbackComponent={CrashNotice}
      onError={(error, info) => isChunkLoadError(error) || reportCrash(error, info.componentStack)}
      resetKeys={resetKeys}
    >
      {children}
    </ErrorBoundary>
  );
}

/** Around the page of a layout: the header and sidebar stay usable, and another address starts afresh. */
export function PageBoundary({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return <CrashBoundary resetKeys={[pathname]}>{children}</CrashBoundary>;
}
