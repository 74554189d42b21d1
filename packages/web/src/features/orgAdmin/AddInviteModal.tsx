import { Alert, Button, CopyButton, Group, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconCheck, IconCopy, IconMailCheck, IconMailOff } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { api, COPY_CONFIRMATION_MS, createInviteBody, type RouteBody, type RouteResponse } from '@wharf/contract';
import { FormModal, useCreateModal } from '../../components/FormModal.tsx';
import { MailOffNotice, useMailOn } from '../../components/MailOffNotice.tsx';
import { call } from '../../lib/api.ts';
import { useCurrentOrg } from '../../lib/currentOrg.tsx';
import { contractResolver } from '../../lib/form.ts';
import { relativeTime } from '../../lib/time.ts';

/** The created invitation: its link, shown once, to copy and pass on. */
function InviteLink({ invite, close }: { invite: RouteResponse<typeof api.createInvite>; close: () => void }) {
  const mailOn = useMailOn();
  const expiry = `It can be used once and expires ${relativeTime(invite.expiresAt)}.`;
  return (
    <Stack>
      {mailOn ? (
        <Alert color="teal" variant="light" icon={<IconMailCheck />}>
          An invitation mail is on its way to {invite.email}; you may also pass this link on yourself. {expiry}
        </Alert>
      ) : (
        <Alert color="orange" variant="light" icon={<IconMailOff />}>
          Mail is off on this server: send this link to {invite.email} yourself. {expiry}
        </Alert>
      )}
      <TextInput label="Invite link" value={invite.url} readOnly onFocus={(event) => event.currentTarget.select()} />
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
  );
}

/** Invites someone by email: a mail brings the link when mail is on; the link is also shown once, to be passed on. */
export function AddInviteModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { org } = useCurrentOrg();
  const client = useQueryClient();
  const form = useForm<Required<RouteBody<typeof api.createInvite>>>({
    initialValues: { email: '', admin: false },
    validate: contractResolver(createInviteBody),
  });
  const { mutation, modal } = useCreateModal({
    form,
    opened,
    onClose,
    create: (body) => call(api.createInvite, { params: { orgId: org._id }, body }),
    onCreated: () => client.invalidateQueries({ queryKey: [api.listInvites.path] }),
    failedAction: 'create invite',
  });

  const invite = mutation.data;
  return (
    <FormModal
      title={invite ? 'Invitation created' : 'Invite someone'}
      {...modal}
      submitLabel="Invite"
      done={invite && <InviteLink invite={invite} close={modal.close} />}
    >
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
      <MailOffNotice>No invitation mail is sent: once it is created, send the invitation link yourself.</MailOffNotice>
    </FormModal>
  );
}
