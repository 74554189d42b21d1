import { Anchor, Group, Text } from '@mantine/core';
import { useCrashReportChoice } from './crashReports.ts';
import { useSystemEnv } from './systemEnv.ts';

/** The footer's crash-report indicator; switching reloads the page (spec.md §4). */
export function CrashReportStatus() {
  const dsn = useSystemEnv().data?.crashReports.dsn ?? null;
  const [choice, setChoice] = useCrashReportChoice();
  const on = dsn !== null && choice === 'enabled';

  const toggle = () => {
    setChoice(on ? 'disabled' : 'enabled');
    window.location.reload();
  };

  return (
    <Group gap={6} wrap="nowrap">
      <span
        aria-hidden
        style={{
          width: 8,
          height: 8,
          borderRadius: '50%',
          background: on ? 'var(--mantine-color-teal-6)' : 'var(--mantine-color-gray-5)',
        }}
      />
      <Text size="xs" c="dimmed">
        Crash reports {on ? 'on' : 'off'}
      </Text>
      {dsn !== null && (
        <Anchor component="button" type="button" size="xs" onClick={toggle}>
          {on ? 'Disable' : 'Enable'}
        </Anchor>
      )}
    </Group>
  );
}
