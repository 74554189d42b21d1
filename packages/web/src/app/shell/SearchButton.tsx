import { ActionIcon, Group, Kbd, Text, UnstyledButton } from '@mantine/core';
import { useOs } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { openSiteSearch } from '../../features/sites/SiteSearchOnDemand.tsx';
import { usePhone } from '../../lib/usePhone.ts';

/** Opens the site search; shows its shortcut where there is a keyboard. */
export function SearchButton() {
  const phone = usePhone();
  const os = useOs({ getValueInEffect: false });
  const mod = os === 'macos' || os === 'ios' ? '⌘' : 'Ctrl';
  if (phone)
    return (
      <ActionIcon variant="default" size="lg" onClick={openSiteSearch} aria-label="Search sites">
        <IconSearch size={18} stroke={1.5} />
      </ActionIcon>
    );
  return (
    <UnstyledButton
      onClick={openSiteSearch}
      aria-label="Search sites"
      px="sm"
      h={36}
      w={240}
      style={{
        border: '1px solid var(--mantine-color-default-border)',
        borderRadius: 'var(--mantine-radius-md)',
        background: 'var(--mantine-color-default)',
      }}
    >
      <Group justify="space-between" wrap="nowrap">
        <Group gap={8} wrap="nowrap">
          <IconSearch size={16} stroke={1.5} color="var(--mantine-color-dimmed)" />
          <Text size="sm" c="dimmed">
            Search sites
          </Text>
        </Group>
        <Group gap={2} wrap="nowrap">
          <Kbd size="xs">{mod}</Kbd>
          <Kbd size="xs">K</Kbd>
        </Group>
      </Group>
    </UnstyledButton>
  );
}
