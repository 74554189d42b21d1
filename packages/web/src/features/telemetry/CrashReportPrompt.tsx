import { Button, Group, Modal, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconBug } from '@tabler/icons-react';
import { useEffect } from 'react';
import { useSystemEnv } from '../../lib/systemEnv.ts';
import { startCrashReports, useCrashReportChoice } from './crashReports.ts';

/**
 * spec.md §4 'Crash reports: asked at first load'. Only asked when the installation has somewhere to
 * send them (a DSN); the stored answer starts reporting on every later load.
 */
export function CrashReportPrompt() {
  const dsn = useSystemEnv().data?.crashReports.dsn ?? null;
  const [choice, setChoice] = useCrashReportChoice();

  useEffect(() => {
    if (dsn && choice === 'enabled') startCrashReports(dsn);
  }, [dsn, choice]);

  const answer = (enabled: boolean) => setChoice(enabled ? 'enabled' : 'disabled');

  return (
    <Modal opened={dsn !== null && choice === null} onClose={() => answer(false)} title="Send crash reports?" size="md">
      <Stack>
        <Group wrap="nowrap" align="flex-start">
          <ThemeIcon size="xl" radius="xl" variant="light">
            <IconBug />
          </ThemeIcon>
          <Text size="sm">
            When something breaks in this console, it can send the error and what led to it to the crash-report service
            of this installation, so that it gets fixed. No passwords or form contents are sent. You can change your
            mind at any time from the footer.
          </Text>
        </Group>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => answer(false)}>
            No, thanks
          </Button>
          <Button onClick={() => answer(true)}>Send crash reports</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
