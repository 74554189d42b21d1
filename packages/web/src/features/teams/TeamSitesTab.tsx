import { Button, Stack } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconPlus, IconWorldWww } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { api, type Site } from '@wharf/contract';
import { EntityAvatar } from '../../components/EntityAvatar.tsx';
import { LinkRow, RowDetail } from '../../components/ListRow.tsx';
import { ListSection } from '../../components/ListSection.tsx';
import { lazyModal, ModalOnDemand } from '../../components/lazyModal.tsx';
import { apiQuery } from '../../lib/api.ts';
import { useCurrentOrg } from '../../lib/currentOrg.tsx';
import { newestFirst } from '../../lib/newestFirst.ts';
import { countOf } from '../../lib/plural.ts';
import { exactTime, relativeTime } from '../../lib/time.ts';

const CreateSiteModal = lazyModal(() => import('../sites/CreateSiteModal.tsx').then((m) => m.CreateSiteModal));

function SiteRow({ site }: { site: Site }) {
  return (
    <LinkRow
      to={`/sites/${site._id}`}
      label={`Site ${site.name}`}
      leading={<EntityAvatar name={site.name} color={site.color} logo={site.logo} size={36} />}
      title={site.name}
      details={
        <RowDetail title={exactTime(site.createdAt)}>
          {site.url} · Created {relativeTime(site.createdAt)}
        </RowDetail>
      }
    />
  );
}

/** The Sites tab of a team: its sites, newest first, and 'Add site' for admins and owners. */
export function TeamSitesTab({ teamId }: { teamId: string }) {
  const { isAdminOrOwner } = useCurrentOrg();
  const [opened, { open, close }] = useDisclosure(false);
  const sites = useQuery(apiQuery(api.listTeamSites, { params: { teamId } }));

  const addButton = isAdminOrOwner && (
    <Button leftSection={<IconPlus size={16} />} onClick={open}>
      Add site
    </Button>
  );
  return (
    <Stack>
      <ListSection
        query={sites}
        errorTitle="Could not list sites"
        empty={{
          icon: <IconWorldWww size={26} stroke={1.5} />,
          title: 'No sites',
          description: 'A site gets an address for every branch as soon as a release is uploaded to it.',
        }}
        intro={countOf(sites.data?.length ?? 0, 'site')}
        action={addButton}
      >
        {(items) => newestFirst(items).map((site) => <SiteRow key={site._id} site={site} />)}
      </ListSection>
      {isAdminOrOwner && <ModalOnDemand modal={CreateSiteModal} opened={opened} onClose={close} teamId={teamId} />}
    </Stack>
  );
}
