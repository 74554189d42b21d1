import {
  ActionIcon,
  Avatar,
  Badge,
  Button,
  Card,
  Group,
  Modal,
  Skeleton,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconSearch, IconUserMinus } from '@tabler/icons-react';
import { keepPreviousData, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, DEFAULT_PAGE_SIZE, messages, type OrgMember } from '@wharf/contract';
import { useState } from 'react';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { ListRow, RowDetail } from '../../components/ListRow.tsx';
import { LoadMore } from '../../components/LoadMore.tsx';
import { call, keyOf } from '../../lib/api.ts';
import { useCurrentOrg } from '../../lib/currentOrg.tsx';
import { notifyFailure } from '../../lib/notify.ts';
import { nextPage } from '../../lib/paging.ts';
import { useSearchTerm } from '../../lib/useSearchTerm.ts';
import { MemberInvitation } from './MemberInvitation.tsx';

function MemberRow({ member, onRemove }: { member: OrgMember; onRemove: (member: OrgMember) => void }) {
  const { member: me } = useCurrentOrg();
  const client = useQueryClient();
  const toggleAdmin = useMutation({
    mutationFn: (admin: boolean) => call(api.updateMember, { params: { memberId: member._id }, body: { admin } }),
    onError: (error) => notifyFailure('toggle admin', error),
    // Either way the list shows what the server now holds.
    onSettled: () => client.invalidateQueries({ queryKey: [api.listMembers.path] }),
  });
  // spec.md §6: the owner toggles and removes others; the owner is never toggled nor removed.
  const manageable = me.owner && !member.owner;
  return (
    <ListRow
      label={`Member ${member.name}`}
      wrapActions={manageable}
      leading={<Avatar name={member.name} color="initials" radius="xl" />}
      title={member.name}
      weight={500}
      badges={
        <>
          {member.owner && (
            <Badge size="sm" color="grape" variant="light">
              owner
            </Badge>
          )}
          {member.admin && (
            <Badge size="sm" variant="light">
              admin
            </Badge>
          )}
          {member._id === me._id && (
            <Badge size="sm" color="gray" variant="outline">
              you
            </Badge>
          )}
        </>
      }
      details={
        <>
          {member.email && <RowDetail>{member.email}</RowDetail>}
          {member.invitation && <MemberInvitation invitation={member.invitation} />}
        </>
      }
      actions={
        manageable && (
          <Group gap="sm" wrap="nowrap">
            <Switch
              label="Admin"
              aria-label={`Admin rights of ${member.name}`}
              checked={toggleAdmin.isPending ? toggleAdmin.variables : member.admin}
              onChange={(event) => toggleAdmin.mutate(event.currentTarget.checked)}
              disabled={toggleAdmin.isPending}
            />
            <Tooltip label="Remove from the organization" withArrow>
              <ActionIcon
                variant="subtle"
                color="red"
                onClick={() => onRemove(member)}
                aria-label={`Remove ${member.name}`}
              >
                <IconUserMinus size={18} />
              </ActionIcon>
            </Tooltip>
          </Group>
        )
      }
    />
  );
}

function RemoveMemberModal({ member, onClose }: { member: OrgMember | null; onClose: () => void }) {
  const { org } = useCurrentOrg();
  const client = useQueryClient();
  const remove = useMutation({
    mutationFn: (memberId: string) => call(api.deleteMember, { params: { memberId } }),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: [api.listMembers.path] });
      onClose();
    },
    onError: (error) => notifyFailure('delete members', error),
  });
  return (
    <Modal opened={member !== null} onClose={onClose} title="Remove member">
      <Stack>
        <Text size="sm">
          Remove <b>{member?.name}</b> from {org.name}? They lose access to its teams and sites at once.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button color="red" onClick={() => member && remove.mutate(member._id)} loading={remove.isPending}>
            Remove
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Members of the organization, searchable, with the owner's controls. */
export function MembersCard() {
  const { org } = useCurrentOrg();
  const [input, setInput] = useState('');
  const [removing, setRemoving] = useState<OrgMember | null>(null);
  const { term, tooShort } = useSearchTerm(input);
  const params = { orgId: org._id };
  const members = useInfiniteQuery({
    queryKey: keyOf(api.listMembers, { params, query: { search: term, size: DEFAULT_PAGE_SIZE } }),
    queryFn: ({ pageParam }) =>
      call(api.listMembers, {
        params,
        query: { page: pageParam, size: DEFAULT_PAGE_SIZE, search: term || undefined },
      }),
    initialPageParam: 0,
    getNextPageParam: nextPage,
    placeholderData: keepPreviousData,
  });
  const items = members.data?.pages.flatMap((page) => page.items) ?? [];
  const total = members.data?.pages[0]?.count;

  return (
    <Card padding={0}>
      <Stack p="lg" pb="sm" gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4">
            Members
          </Title>
          {total !== undefined && (
            <Badge variant="default" size="lg">
              {total}
            </Badge>
          )}
        </Group>
        <TextInput
          label="Search members"
          placeholder="Name or email"
          leftSection={<IconSearch size={16} />}
          value={input}
          onChange={(event) => setInput(event.currentTarget.value)}
          description={tooShort ? messages.searchMinLength : undefined}
        />
      </Stack>
      {members.isPending && <Skeleton h={60} mx="lg" mb="lg" />}
      {members.error && (
        <Stack p="lg" pt={0}>
          <ErrorPanel title="Could not list members" query={members} />
        </Stack>
      )}
      {members.isSuccess && items.length === 0 && (
        <Text size="sm" c="dimmed" px="lg" pb="lg">
          {term ? 'No results' : 'No members'}
        </Text>
      )}
      {items.length > 0 && (
        <div style={{ borderTop: '1px solid var(--mantine-color-default-border)' }} aria-busy={members.isFetching}>
          {items.map((member) => (
            <MemberRow key={member._id} member={member} onRemove={setRemoving} />
          ))}
        </div>
      )}
      {members.hasNextPage && (
        <Group justify="center" p="md">
          <LoadMore list={members} />
        </Group>
      )}
      <RemoveMemberModal member={removing} onClose={() => setRemoving(null)} />
    </Card>
  );
}
