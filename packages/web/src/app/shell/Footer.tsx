import { Anchor, Group } from '@mantine/core';
import { IconBrandMastodon } from '@tabler/icons-react';
import { Link } from 'react-router';
import { CrashReportStatus } from '../../features/telemetry/CrashReportStatus.tsx';
import { VersionString } from './VersionString.tsx';

/** Where the project talks about itself. */
const SOCIAL_URL = 'https://mastodon.social/@wharf';

export function Footer() {
  return (
    <Group
      component="footer"
      justify="space-between"
      gap="xs"
      py="md"
      mt="xl"
      style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
    >
      <Group gap="md">
        <Anchor href={SOCIAL_URL} target="_blank" rel="noopener noreferrer" size="xs" c="dimmed">
          <Group gap={4} component="span" wrap="nowrap">
            <IconBrandMastodon size={14} aria-hidden />
            Follow Wharf
          </Group>
        </Anchor>
        <Anchor component={Link} to="/legal" size="xs" c="dimmed">
          Legal
        </Anchor>
        <CrashReportStatus />
      </Group>
      <VersionString />
    </Group>
  );
}
