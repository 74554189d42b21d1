import { Button, Group, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconChevronRight, IconPlus, IconWorldWww } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { api, type Site } from '@wharf/contract';
import { Link } from 'react-router';
import { EmptyState } from '../../components/EmptyState.tsx';
import { EntityAvatar } from '../../components/EntityAvatar.tsx';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import classes from '../../components/ListRow.module.css';
import { lazyModal, ModalOnDemand } from '../../components/lazyModal.tsx';
import { apiQuery } from '../../lib/api.ts';
import { useCurrentOrg } from '../../lib/currentOrg.tsx';
import { newestFirst } from '../../lib/newestFirst.ts';
import { countOf } from '../../lib/plural.ts';
import { exactTime, relativeTime } from '../../lib/time.ts';

const CreateSiteModal = lazyModal(() => import('../sites/CreateSiteModal.tsx').then((m) => m.CreateSiteModal));

function SiteRow({ site }: { site: Site }) {
  return (
    <Link to={`/sites/${site._id}`} className={classes.row} aria-label={`Site ${site.name}`}>
      <Group wrap="nowrap" justify="space-between">
        <Group wrap="nowrap" miw={0}>
          <EntityAvatar name={site.name} color={site.color} logo={site.logo} size={36} />
          <Stack gap={0} miw={0}>
            <Text fw={600} truncate>
              {site.name}
            </Text>
            <Text size="xs" c="dimmed" truncate title={exactTime(site.createdAt)}>
              {site.url} · Created {relativeTime(site.createdAt)}
            </Text>
          </Stack>
        </Group>
        <IconChevronRight size={18} stroke={1.5} color="var(--mantine-color-dimmed)" />
      </Group>
    </Link>
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
      {sites.error && <ErrorPanel title="Could not list sites" query={sites} />}
      {sites.isPending && <Skeleton h={120} />}
      {sites.data?.length === 0 && (
        <EmptyState
          icon={<IconWorldWww size={26} stroke={1.5} />}
          title="No sites"
          description="A site gets an address for every branch as soon as a release is uploaded to it."
          action={addButton}
        />
      )}
      {sites.data && sites.data.length > 0 && (
        <>
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              {countOf(sites.data.length, 'site')}
            </Text>
            {addButton}
          </Group>
          <Paper withBorder className={classes.list}>
            {newestFirst(sites.data).map((site) => (
              <SiteRow key={site._id} site={site} />
            ))}
          </Paper>
        </>
      )}
      {isAdminOrOwner && <ModalOnDemand modal={CreateSiteModal} opened={opened} onClose={close} teamId={teamId} />}
    </Stack>
  );
}
