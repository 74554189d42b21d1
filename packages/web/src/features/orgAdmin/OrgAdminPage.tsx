import { IconHistory, IconSettings, IconUsers, IconWebhook } from '@tabler/icons-react';
import { Outlet } from 'react-router';
import { EntityAvatar } from '../../components/EntityAvatar.tsx';
import { PageTitle } from '../../components/PageTitle.tsx';
import { RouteTabs } from '../../components/RouteTabs.tsx';
import { useCurrentOrg } from '../../lib/currentOrg.tsx';

/** /org: the settings, staff, hooks and audit log of the current organization, for its admins and owner. */
export function OrgAdminPage() {
  const { org } = useCurrentOrg();
  return (
    <>
      <PageTitle
        leading={<EntityAvatar name={org.name} color={org.color} logo={org.logo} size={48} />}
        title={org.name}
        description="Organization settings"
      />
      <RouteTabs
        base="/org"
        tabs={[
          { value: 'settings', label: 'Settings', icon: <IconSettings size={16} /> },
          { value: 'staff', label: 'Staff', icon: <IconUsers size={16} /> },
          { value: 'hooks', label: 'Hooks', icon: <IconWebhook size={16} /> },
          { value: 'audit', label: 'Audit log', icon: <IconHistory size={16} /> },
        ]}
      />
      <Outlet />
    </>
  );
}
