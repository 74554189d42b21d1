import { ActionIcon, Avatar, Badge, Button, Group, Paper, Skeleton, Stack, Text, Tooltip } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconUserMinus, IconUserPlus, IconUsers } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type TeamMember } from '@wharf/contract';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import classes from '../../components/ListRow.module.css';
import { apiQuery, call } from '../../lib/api.ts';
import { useCurrentOrg } from '../../lib/currentOrg.tsx';
import { notifyFailure } from '../../lib/notify.ts';
import { AddTeamMemberModal } from './AddTeamMemberModal.tsx';

function MemberRow({ member, teamId, removable }: { member: TeamMember; teamId: string; removable: boolean }) {
  const client = useQueryClient();
  const remove = useMutation({
    mutationFn: () => call(api.removeTeamMember, { params: { teamId, memberId: member.memberId } }),
    onSuccess: () => client.invalidateQueries({ queryKey: [api.listTeamMembers.path] }),
    onError: (error) => notifyFailure('delete members', error),
  });
  return (
    <Group className={classes.row} justify="space-between" wrap="nowrap" aria-label={`Team member ${member.name}`}>
      <Group wrap="nowrap" miw={0}>
        <Avatar name={member.name} color="initials" radius="xl" />
        <Stack gap={2} miw={0}>
          <Group gap={6}>
            <Text fw={500} truncate>
              {member.name}
            </Text>
            {member.admin && (
              <Badge size="sm" variant="light">
                admin
              </Badge>
            )}
          </Group>
          {member.email && (
            <Text size="xs" c="dimmed" truncate>
              {member.email}
            </Text>
          )}
        </Stack>
      </Group>
      {removable && (
        <Tooltip label="Remove from the team" withArrow>
          <ActionIcon
            variant="subtle"
            color="red"
            onClick={() => remove.mutate()}
            loading={remove.isPending}
            aria-label={`Remove ${member.name} from the team`}
          >
            <IconUserMinus size={18} />
          </ActionIcon>
        </Tooltip>
      )}
    </Group>
  );
}

/** The Members tab of a team: who manages its sites, added and removed by admins and owners. */
export function TeamMembersTab({ teamId }: { teamId: string }) {
  const { isAdminOrOwner } = useCurrentOrg();
  const [opened, { open, close }] = useDisclosure(false);
  const members = useQuery(apiQuery(api.listTeamMembers, { params: { teamId } }));
  const addButton = isAdminOrOwner && (
    <Button leftSection={<IconUserPlus size={16} />} onClick={open}>
      Add member
    </Button>
  );
  return (
    <Stack>
      {members.error && <ErrorPanel title="Could not list members" query={members} />}
      {members.isPending && <Skeleton h={120} />}
      {members.data?.length === 0 && (
        <EmptyState
          icon={<IconUsers size={26} stroke={1.5} />}
          title="No members"
          description="Members of a team manage its sites: branches, releases, tokens and hooks."
          action={addButton}
        />
      )}
      {members.data && members.data.length > 0 && (
        <>
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              Members of the team manage its sites; admins and owners of the organization manage every site.
            </Text>
            {addButton}
          </Group>
          <Paper withBorder className={classes.list}>
            {members.data.map((member) => (
              <MemberRow key={member.memberId} member={member} teamId={teamId} removable={isAdminOrOwner} />
            ))}
          </Paper>
        </>
      )}
      {isAdminOrOwner && (
        <AddTeamMemberModal
          opened={opened}
          onClose={close}
          teamId={teamId}
          memberIds={new Set(members.data?.map((member) => member.memberId))}
        />
      )}
    </Stack>
  );
}
