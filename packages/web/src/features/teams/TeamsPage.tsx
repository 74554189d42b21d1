import { Button, Group, Kbd, Skeleton, Tooltip } from '@mantine/core';
import { useDisclosure, useHotkeys, useOs } from '@mantine/hooks';
import { IconPlus, IconUsersGroup } from '@tabler/icons-react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { api, DEFAULT_PAGE_SIZE, HOTKEY_ADD_TEAM, type Team } from '@wharf/contract';
import { EmptyState } from '../../components/EmptyState.tsx';
import { EntityAvatar } from '../../components/EntityAvatar.tsx';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { LinkRow, RowDetail, RowList } from '../../components/ListRow.tsx';
import { LoadMore } from '../../components/LoadMore.tsx';
import { lazyModal, ModalOnDemand } from '../../components/lazyModal.tsx';
import { OnDemand } from '../../components/OnDemand.tsx';
import { PageTitle } from '../../components/PageTitle.tsx';
import { call, keyOf } from '../../lib/api.ts';
import { useCurrentOrg } from '../../lib/currentOrg.tsx';
import { nextPage } from '../../lib/paging.ts';
import { exactTime, relativeTime } from '../../lib/time.ts';
import { LiveSites } from '../home/liveSitesOnDemand.ts';

const CreateTeamModal = lazyModal(() => import('./CreateTeamModal.tsx').then((m) => m.CreateTeamModal));

function TeamRow({ team }: { team: Team }) {
  return (
    <LinkRow
      to={`/teams/${team._id}`}
      leading={<EntityAvatar name={team.name} color={team.color} logo={team.logo} size={38} />}
      title={team.name}
      details={
        <RowDetail title={exactTime(team.createdAt)} truncate={false}>
          Created {relativeTime(team.createdAt)}
        </RowDetail>
      }
    />
  );
}

/** The organization's home (/): its teams, a page at a time, then its sites and what each serves. */
export function TeamsPage() {
  const { org, isAdminOrOwner } = useCurrentOrg();
  const os = useOs({ getValueInEffect: false });
  const [opened, { open, close }] = useDisclosure(false);
  useHotkeys(isAdminOrOwner ? [[HOTKEY_ADD_TEAM, open]] : []);
  const params = { orgId: org._id };
  const teams = useInfiniteQuery({
    queryKey: keyOf(api.listTeams, { params, query: { size: DEFAULT_PAGE_SIZE } }),
    queryFn: ({ pageParam }) => call(api.listTeams, { params, query: { page: pageParam, size: DEFAULT_PAGE_SIZE } }),
    initialPageParam: 0,
    getNextPageParam: nextPage,
  });
  const items = teams.data?.pages.flatMap((page) => page.items) ?? [];
  const mod = os === 'macos' || os === 'ios' ? '⌘' : 'Ctrl';

  const addButton = isAdminOrOwner && (
    <Tooltip
      label={
        <Group gap={4}>
          Shortcut <Kbd size="xs">{mod}</Kbd> + <Kbd size="xs">P</Kbd>
        </Group>
      }
      withArrow
    >
      <Button leftSection={<IconPlus size={16} />} onClick={open} aria-keyshortcuts="Control+P Meta+P">
        Add team
      </Button>
    </Tooltip>
  );

  return (
    <>
      <PageTitle title="Teams" description={`Teams of ${org.name}`} action={addButton} />
      {teams.isPending && <Skeleton h={180} />}
      {teams.error && <ErrorPanel title="Could not list teams" query={teams} />}
      {teams.isSuccess && items.length === 0 && (
        <EmptyState
          icon={<IconUsersGroup size={26} stroke={1.5} />}
          title="No teams"
          description={
            isAdminOrOwner
              ? 'Teams group the sites that the same people work on. Add one to create your first site.'
              : 'An admin of this organization has not created any team yet.'
          }
          action={addButton}
        />
      )}
      {items.length > 0 && (
        <RowList>
          {items.map((team) => (
            <TeamRow key={team._id} team={team} />
          ))}
        </RowList>
      )}
      {teams.hasNextPage && (
        <Group justify="center" mt="md">
          <LoadMore list={teams} />
        </Group>
      )}
      <OnDemand>
        <LiveSites orgId={org._id} />
      </OnDemand>
      {isAdminOrOwner && <ModalOnDemand modal={CreateTeamModal} opened={opened} onClose={close} />}
    </>
  );
}
