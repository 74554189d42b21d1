import { ActionIcon, Avatar, Badge, Button, Stack, Tooltip } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconUserMinus, IconUserPlus, IconUsers } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type TeamMember } from '@wharf/contract';
import { ListRow, RowDetail } from '../../components/ListRow.tsx';
import { ListSection } from '../../components/ListSection.tsx';
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
    <ListRow
      label={`Team member ${member.name}`}
      leading={<Avatar name={member.name} color="initials" radius="xl" />}
      title={member.name}
      weight={500}
      badges={
        member.admin && (
          <Badge size="sm" variant="light">
            admin
          </Badge>
        )
      }
      details={member.email && <RowDetail>{member.email}</RowDetail>}
      actions={
        removable && (
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
        )
      }
    />
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
      <ListSection
        query={members}
        errorTitle="Could not list members"
        empty={{
          icon: <IconUsers size={26} stroke={1.5} />,
          title: 'No members',
          description: 'Members of a team manage its sites: branches, releases, tokens and hooks.',
        }}
        intro="Members of the team manage its sites; admins and owners of the organization manage every site."
        action={addButton}
      >
        {(items) =>
          items.map((member) => (
            <MemberRow key={member.memberId} member={member} teamId={teamId} removable={isAdminOrOwner} />
          ))
        }
      </ListSection>
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
