import { Avatar, Menu, Text, UnstyledButton } from '@mantine/core';
import { IconBuilding, IconLogout, IconSettings, IconUserCog } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useCurrentOrgState } from '../../lib/currentOrg.tsx';
import { signOut, useSignedInUser } from '../../lib/session.ts';

/** spec.md §2: Organization Settings (admins and owners), User settings, Organizations, Sign out. */
export function UserMenu() {
  const user = useSignedInUser();
  const { current, leave } = useCurrentOrgState();
  return (
    <Menu position="bottom-end" width={220} shadow="md" withArrow>
      <Menu.Target>
        <UnstyledButton aria-label={`User menu of ${user.name}`} style={{ borderRadius: '50%' }}>
          <Avatar src={user.avatarUrl} name={user.name} color="initials" radius="xl" size={34} alt="" />
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          <Text size="xs" fw={600} c="bright" truncate>
            {user.name}
          </Text>
          {user.email && (
            <Text size="xs" c="dimmed" truncate>
              {user.email}
            </Text>
          )}
        </Menu.Label>
        <Menu.Divider />
        {current?.isAdminOrOwner && (
          <Menu.Item component={Link} to="/org" leftSection={<IconSettings size={16} />}>
            Organization Settings
          </Menu.Item>
        )}
        <Menu.Item component={Link} to="/user" leftSection={<IconUserCog size={16} />}>
          User settings
        </Menu.Item>
        <Menu.Item onClick={leave} leftSection={<IconBuilding size={16} />}>
          Organizations
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item color="red" onClick={() => void signOut()} leftSection={<IconLogout size={16} />}>
          Sign out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
