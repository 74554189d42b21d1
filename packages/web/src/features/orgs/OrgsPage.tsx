import { Button, Container, Group, Paper, Skeleton, Stack, Text, UnstyledButton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconBuilding, IconChevronRight, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { api, type Org } from '@wharf/contract';
import { useState } from 'react';
import { EmptyState } from '../../components/EmptyState.tsx';
import { EntityAvatar } from '../../components/EntityAvatar.tsx';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import classes from '../../components/ListRow.module.css';
import { lazyModal, ModalOnDemand } from '../../components/lazyModal.tsx';
import { PageTitle } from '../../components/PageTitle.tsx';
import { apiQuery } from '../../lib/api.ts';
import { useCurrentOrgState } from '../../lib/currentOrg.tsx';
import { relativeTime } from '../../lib/time.ts';

const CreateOrgModal = lazyModal(() => import('./CreateOrgModal.tsx').then((m) => m.CreateOrgModal));

function OrgRow({ org, onSelect, busy }: { org: Org; onSelect: () => void; busy: boolean }) {
  return (
    <UnstyledButton className={classes.row} onClick={onSelect} disabled={busy} aria-label={`Select ${org.name}`}>
      <Group wrap="nowrap" justify="space-between">
        <Group wrap="nowrap" miw={0}>
          <EntityAvatar name={org.name} color={org.color} logo={org.logo} size={40} />
          <Stack gap={0} miw={0}>
            <Text fw={600} truncate>
              {org.name}
            </Text>
            <Text size="xs" c="dimmed">
              Created {relativeTime(org.createdAt)}
            </Text>
          </Stack>
        </Group>
        <IconChevronRight size={18} stroke={1.5} color="var(--mantine-color-dimmed)" />
      </Group>
    </UnstyledButton>
  );
}

/** /orgs: pick the organization to work in, or create one. */
export function OrgsPage() {
  const orgs = useQuery(apiQuery(api.listOrgs));
  const { select } = useCurrentOrgState();
  const [opened, { open, close }] = useDisclosure(false);
  const [selecting, setSelecting] = useState<string | null>(null);
  const sorted = [...(orgs.data ?? [])].sort((a, b) => a.name.localeCompare(b.name));

  const choose = async (orgId: string) => {
    setSelecting(orgId);
    await select(orgId);
    setSelecting(null);
  };

  const addButton = (
    <Button leftSection={<IconPlus size={16} />} onClick={open}>
      Add org
    </Button>
  );

  return (
    <Container size="sm" px={0}>
      <PageTitle title="Organization" description="Select an organization" action={addButton} />
      {orgs.isPending && <Skeleton h={160} />}
      {orgs.error && <ErrorPanel title="Could not list organizations" query={orgs} />}
      {orgs.data && sorted.length === 0 && (
        <EmptyState
          icon={<IconBuilding size={26} stroke={1.5} />}
          title="No organizations"
          description="An organization holds your teams, sites and the people who work on them. Create one to start, or ask to be invited to one."
          action={addButton}
        />
      )}
      {sorted.length > 0 && (
        <Paper withBorder className={classes.list}>
          {sorted.map((org) => (
            <OrgRow key={org._id} org={org} onSelect={() => void choose(org._id)} busy={selecting !== null} />
          ))}
        </Paper>
      )}
      <ModalOnDemand modal={CreateOrgModal} opened={opened} onClose={close} />
    </Container>
  );
}
