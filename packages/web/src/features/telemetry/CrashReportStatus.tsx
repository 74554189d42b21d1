import { Anchor, Group, Text } from '@mantine/core';
import { useSystemEnv } from '../../lib/systemEnv.ts';
import { useCrashReportChoice } from './crashReports.ts';

/** The footer's crash-report indicator; switching reloads the page (spec.md §4). */
export function CrashReportStatus() {
  const env = useSystemEnv();
  const dsn = env.data?.crashReports.dsn ?? null;
  const [choice, setChoice] = useCrashReportChoice();
  const on = dsn !== null && choice === 'enabled';

  const toggle = () => {
    setChoice(on ? 'disabled' : 'enabled');
    window.location.reload();
  };

  return (
    // Kept in place but unseen until the installation's settings are known: never 'off' by mistake.
    <Group gap={6} wrap="nowrap" style={{ visibility: env.data ? undefined : 'hidden' }}>
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
