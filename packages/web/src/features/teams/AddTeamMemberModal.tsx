import { Avatar, Badge, Button, Group, Modal, ScrollArea, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { IconSearch, IconUserPlus } from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, messages, type OrgMember, SEARCH_PAGE_SIZE } from '@wharf/contract';
import { useState } from 'react';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { apiQuery, call } from '../../lib/api.ts';
import { useCurrentOrg } from '../../lib/currentOrg.tsx';
import { notifyFailure } from '../../lib/notify.ts';
import { useSearchTerm } from '../../lib/useSearchTerm.ts';

function Candidate({ member, teamId, inTeam }: { member: OrgMember; teamId: string; inTeam: boolean }) {
  const client = useQueryClient();
  const add = useMutation({
    mutationFn: () =>
      call(api.addTeamMember, { params: { teamId, memberId: member._id }, body: { member: member._id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: [api.listTeamMembers.path] }),
    onError: (error) => notifyFailure('add members', error),
  });
  return (
    <Group justify="space-between" wrap="nowrap" py={6} aria-label={`Candidate ${member.name}`}>
      <Group wrap="nowrap" miw={0} gap="sm">
        <Avatar name={member.name} color="initials" radius="xl" size={32} />
        <Stack gap={0} miw={0}>
          <Text size="sm" fw={500} truncate>
            {member.name}
          </Text>
          {member.email && (
            <Text size="xs" c="dimmed" truncate>
              {member.email}
            </Text>
          )}
        </Stack>
      </Group>
      {inTeam ? (
        <Badge variant="light" color="teal">
          In team
        </Badge>
      ) : (
        <Button
          size="xs"
          variant="light"
          leftSection={<IconUserPlus size={14} />}
          onClick={() => add.mutate()}
          loading={add.isPending}
          aria-label={`Add ${member.name}`}
        >
          Add
        </Button>
      )}
    </Group>
  );
}

/** 'Add member': the organization's members, searchable, each added to the team with one click. */
export function AddTeamMemberModal({
  opened,
  onClose,
  teamId,
  memberIds,
}: {
  opened: boolean;
  onClose: () => void;
  teamId: string;
  memberIds: Set<string>;
}) {
  const { org } = useCurrentOrg();
  const [input, setInput] = useState('');
  const { term, tooShort } = useSearchTerm(input);
  const members = useQuery({
    ...apiQuery(api.listMembers, {
      params: { orgId: org._id },
      query: { page: 0, size: SEARCH_PAGE_SIZE, search: term || undefined },
    }),
    enabled: opened,
    placeholderData: keepPreviousData,
  });
  const items = members.data?.items ?? [];
  return (
    <Modal opened={opened} onClose={onClose} title="Add member">
      <Stack>
        <TextInput
          label="Search members"
          placeholder="Name or email"
          leftSection={<IconSearch size={16} />}
          value={input}
          onChange={(event) => setInput(event.currentTarget.value)}
          description={tooShort ? messages.searchMinLength : 'Members of the organization'}
          data-autofocus
        />
        {members.isPending && <Skeleton h={120} />}
        {members.error && <ErrorPanel title="Could not list members" query={members} />}
        {members.isSuccess && items.length === 0 && (
          <Text size="sm" c="dimmed">
            No results
          </Text>
        )}
        {items.length > 0 && (
          <ScrollArea.Autosize mah={360}>
            {items.map((member) => (
              <Candidate key={member._id} member={member} teamId={teamId} inTeam={memberIds.has(member._id)} />
            ))}
          </ScrollArea.Autosize>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Done
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
