import { Avatar } from '@mantine/core';
import { IconKey, IconShieldLock, IconWebhook } from '@tabler/icons-react';
import { Outlet } from 'react-router';
import { PageTitle } from '../../components/PageTitle.tsx';
import { RouteTabs } from '../../components/RouteTabs.tsx';
import { useSignedInUser } from '../../lib/session.ts';

/** /user: the signed-in user's API tokens, security and own hooks. */
export function UserSettingsPage() {
  const user = useSignedInUser();
  return (
    <>
      <PageTitle
        leading={<Avatar name={user.name} color="initials" radius="xl" size={48} />}
        title="User settings"
        description={user.email ? `${user.name} · ${user.email}` : user.name}
      />
      <RouteTabs
        base="/user"
        tabs={[
          { value: 'api-tokens', label: 'API tokens', icon: <IconKey size={16} /> },
          { value: 'security', label: 'Security', icon: <IconShieldLock size={16} /> },
          { value: 'hooks', label: 'Hooks', icon: <IconWebhook size={16} /> },
        ]}
      />
      <Outlet />
    </>
  );
}
