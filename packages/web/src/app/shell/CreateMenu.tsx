import { ActionIcon, Button, Menu } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconBuilding, IconKey, IconPlus, IconUsersGroup, IconWorldWww } from '@tabler/icons-react';
import { Link } from 'react-router';
import { lazyModal, ModalOnDemand } from '../../components/lazyModal.tsx';
import { useCurrentOrg } from '../../lib/currentOrg.tsx';
import { useSignedInUser } from '../../lib/session.ts';
import { usePhone } from '../../lib/usePhone.ts';

const CreateTeamModal = lazyModal(() =>
  import('../../features/teams/CreateTeamModal.tsx').then((m) => m.CreateTeamModal),
);
const CreateSiteModal = lazyModal(() =>
  import('../../features/sites/CreateSiteModal.tsx').then((m) => m.CreateSiteModal),
);
const CreateOrgModal = lazyModal(() => import('../../features/orgs/CreateOrgModal.tsx').then((m) => m.CreateOrgModal));

/** The header's create button: what the user may create in the current organization. */
export function CreateMenu() {
  const { isAdminOrOwner } = useCurrentOrg();
  const { canCreateOrgs } = useSignedInUser();
  const phone = usePhone();
  const [teamOpened, team] = useDisclosure(false);
  const [siteOpened, site] = useDisclosure(false);
  const [orgOpened, org] = useDisclosure(false);
  return (
    <>
      <Menu position="bottom-end" width={200} shadow="md" withArrow>
        <Menu.Target>
          {phone ? (
            <ActionIcon variant="filled" size="lg" aria-label="Create">
              <IconPlus size={18} />
            </ActionIcon>
          ) : (
            <Button leftSection={<IconPlus size={16} />} size="sm">
              Create
            </Button>
          )}
        </Menu.Target>
        <Menu.Dropdown>
          {isAdminOrOwner && (
            <>
              <Menu.Item leftSection={<IconWorldWww size={16} />} onClick={site.open}>
                Site
              </Menu.Item>
              <Menu.Item leftSection={<IconUsersGroup size={16} />} onClick={team.open}>
                Team
              </Menu.Item>
            </>
          )}
          <Menu.Item leftSection={<IconKey size={16} />} component={Link} to="/user/api-tokens/add">
            API token
          </Menu.Item>
          {canCreateOrgs && (
            <Menu.Item leftSection={<IconBuilding size={16} />} onClick={org.open}>
              Organization
            </Menu.Item>
          )}
        </Menu.Dropdown>
      </Menu>
      <ModalOnDemand modal={CreateTeamModal} opened={teamOpened} onClose={team.close} />
      <ModalOnDemand modal={CreateSiteModal} opened={siteOpened} onClose={site.close} />
      {canCreateOrgs && <ModalOnDemand modal={CreateOrgModal} opened={orgOpened} onClose={org.close} />}
    </>
  );
}
