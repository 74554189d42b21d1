import { Alert, Button, CopyButton, Group, Modal, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconCheck, IconCopy, IconMailCheck } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, COPY_CONFIRMATION_MS, createInviteBody } from '@wharf/contract';
import { call } from '../../lib/api.ts';
import { contractResolver } from '../../lib/form.ts';
import { notifyFailure } from '../../lib/notify.ts';
import { relativeTime } from '../../lib/time.ts';
import { useCurrentOrg } from '../orgs/currentOrg.tsx';

/** Invites someone by email; the answer's link is shown once, to be passed on. */
export function AddInviteModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { org } = useCurrentOrg();
  const client = useQueryClient();
  const form = useForm({ initialValues: { email: '', admin: false }, validate: contractResolver(createInviteBody) });
  const create = useMutation({
    mutationFn: (body: { email: string; admin: boolean }) =>
      call(api.createInvite, { params: { orgId: org._id }, body }),
    onSuccess: () => client.invalidateQueries({ queryKey: [api.listInvites.path] }),
    onError: (error) => notifyFailure('create invite', error),
  });

  const close = () => {
    form.reset();
    create.reset();
    onClose();
  };

  const invite = create.data;
  return (
    <Modal opened={opened} onClose={close} title={invite ? 'Invitation created' : 'Invite someone'}>
      {invite ? (
        <Stack>
          <Alert color="teal" variant="light" icon={<IconMailCheck />}>
            Send this link to {invite.email}. It can be used once and expires {relativeTime(invite.expiresAt)}.
          </Alert>
          <TextInput
            label="Invite link"
            value={invite.url}
            readOnly
            onFocus={(event) => event.currentTarget.select()}
          />
          <Group justify="flex-end">
            <CopyButton value={invite.url} timeout={COPY_CONFIRMATION_MS}>
              {({ copied, copy }) => (
                <Button
                  variant="light"
                  color={copied ? 'teal' : undefined}
                  leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                  onClick={copy}
                >
                  {copied ? 'Copied' : 'Copy link'}
                </Button>
              )}
            </CopyButton>
            <Button onClick={close}>Done</Button>
          </Group>
        </Stack>
      ) : (
        <form onSubmit={form.onSubmit((values) => create.mutate(values))} noValidate>
          <Stack>
            <TextInput
              label="Email"
              type="email"
              placeholder="someone@example.com"
              data-autofocus
              withAsterisk
              {...form.getInputProps('email')}
            />
            <Switch
              label="Admin"
              description={`Admins manage the settings, staff, teams and sites of ${org.name}`}
              {...form.getInputProps('admin', { type: 'checkbox' })}
            />
            <Text size="xs" c="dimmed">
              The invitation expires after 7 days.
            </Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" loading={create.isPending}>
                Invite
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
