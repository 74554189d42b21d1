import { Button, Container, Skeleton, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconBuilding, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { api, type Org } from '@wharf/contract';
import { useState } from 'react';
import { EmptyState } from '../../components/EmptyState.tsx';
import { EntityAvatar } from '../../components/EntityAvatar.tsx';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { ButtonRow, RowDetail, RowList } from '../../components/ListRow.tsx';
import { lazyModal, ModalOnDemand } from '../../components/lazyModal.tsx';
import { PageTitle } from '../../components/PageTitle.tsx';
import { apiQuery } from '../../lib/api.ts';
import { useCurrentOrgState } from '../../lib/currentOrg.tsx';
import { useSignedInUser } from '../../lib/session.ts';
import { relativeTime } from '../../lib/time.ts';

const CreateOrgModal = lazyModal(() => import('./CreateOrgModal.tsx').then((m) => m.CreateOrgModal));

function OrgRow({ org, onSelect, busy }: { org: Org; onSelect: () => void; busy: boolean }) {
  return (
    <ButtonRow
      onClick={onSelect}
      disabled={busy}
      label={`Select ${org.name}`}
      leading={<EntityAvatar name={org.name} color={org.color} logo={org.logo} size={40} />}
      title={org.name}
      details={<RowDetail truncate={false}>Created {relativeTime(org.createdAt)}</RowDetail>}
    />
  );
}

/** Why this user sees no way to create an organization (WHARF_ORG_CREATORS leaves them out). */
const mayNotCreate =
  "You may not create organizations on this installation. Ask an organization's admin to invite you.";

/** /orgs: pick the organization to work in, or create one when this user may. */
export function OrgsPage() {
  const { canCreateOrgs } = useSignedInUser();
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

  const addButton = canCreateOrgs && (
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
          description={
            canCreateOrgs
              ? 'An organization holds your teams, sites and the people who work on them. Create one to start, or ask to be invited to one.'
              : `An organization holds your teams, sites and the people who work on them. ${mayNotCreate}`
          }
          action={addButton}
        />
      )}
      {sorted.length > 0 && (
        <RowList>
          {sorted.map((org) => (
            <OrgRow key={org._id} org={org} onSelect={() => void choose(org._id)} busy={selecting !== null} />
          ))}
        </RowList>
      )}
      {!canCreateOrgs && sorted.length > 0 && (
        <Text size="sm" c="dimmed" mt="md">
          {mayNotCreate}
        </Text>
      )}
      {canCreateOrgs && <ModalOnDemand modal={CreateOrgModal} opened={opened} onClose={close} />}
    </Container>
  );
}
