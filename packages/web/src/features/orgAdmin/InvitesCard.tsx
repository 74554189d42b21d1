import { ActionIcon, Badge, Button, Card, Group, Skeleton, Stack, Text, Title, Tooltip } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconMailPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type Invite } from '@wharf/contract';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { Expiry } from '../../components/Expiry.tsx';
import classes from '../../components/ListRow.module.css';
import { apiQuery, call } from '../../lib/api.ts';
import { useCurrentOrg } from '../../lib/currentOrg.tsx';
import { notifyFailure } from '../../lib/notify.ts';
import { isPast } from '../../lib/time.ts';
import { AddInviteModal } from './AddInviteModal.tsx';

function InviteRow({ invite }: { invite: Invite }) {
  const { org } = useCurrentOrg();
  const client = useQueryClient();
  const remove = useMutation({
    mutationFn: () => call(api.deleteInvite, { params: { orgId: org._id, inviteId: invite._id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: [api.listInvites.path] }),
    onError: (error) => notifyFailure('delete invite', error),
  });
  const expired = isPast(invite.expiresAt);
  return (
    <Group className={classes.row} justify="space-between" wrap="nowrap" aria-label={`Invitation of ${invite.email}`}>
      <Stack gap={2} miw={0}>
        <Group gap="xs" wrap="nowrap">
          <Text fw={500} truncate>
            {invite.email}
          </Text>
          {invite.memberOptions.admin && (
            <Badge size="sm" variant="light" style={{ flexShrink: 0 }}>
              admin
            </Badge>
          )}
        </Group>
        <Expiry at={invite.expiresAt} expired={expired} size="xs" />
      </Stack>
      <Tooltip label="Delete the invitation" withArrow>
        <ActionIcon
          variant="subtle"
          color="red"
          onClick={() => remove.mutate()}
          loading={remove.isPending}
          aria-label={`Delete the invitation of ${invite.email}`}
        >
          <IconTrash size={18} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}

/** Pending invitations: email, expiry, admin flag; add and delete. */
export function InvitesCard() {
  const { org } = useCurrentOrg();
  const [opened, { open, close }] = useDisclosure(false);
  const invites = useQuery(apiQuery(api.listInvites, { params: { orgId: org._id } }));
  return (
    <Card padding={0}>
      <Group justify="space-between" p="lg" pb="sm">
        <Stack gap={0}>
          <Title order={2} size="h4">
            Invites
          </Title>
          <Text size="sm" c="dimmed">
            Pending invitations to join {org.name}
          </Text>
        </Stack>
        <Button variant="light" leftSection={<IconMailPlus size={16} />} onClick={open}>
          Add invite
        </Button>
      </Group>
      {invites.isPending && <Skeleton h={60} mx="lg" mb="lg" />}
      {invites.error && (
        <Stack p="lg" pt={0}>
          <ErrorPanel title="Could not list invites" query={invites} />
        </Stack>
      )}
      {invites.data?.length === 0 && (
        <Text size="sm" c="dimmed" px="lg" pb="lg">
          No pending invitations
        </Text>
      )}
      {invites.data && invites.data.length > 0 && (
        <div style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
          {invites.data.map((invite) => (
            <InviteRow key={invite._id} invite={invite} />
          ))}
        </div>
      )}
      <AddInviteModal opened={opened} onClose={close} />
    </Card>
  );
}
