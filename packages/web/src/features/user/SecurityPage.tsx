import { Button, Card, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconDevicesOff } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { api } from '@wharf/contract';
import { call } from '../../lib/api.ts';
import { notifyFailure } from '../../lib/notify.ts';
import { signOut } from '../../lib/session.ts';
import { ConnectedAccountsCard } from './ConnectedAccountsCard.tsx';

/** 'Disconnect from all devices' ends every session, then signs out (spec.md §4). */
function SessionsCard() {
  const [opened, { open, close }] = useDisclosure(false);
  const disconnect = useMutation({
    mutationFn: () => call(api.disconnectUser),
    onSuccess: () => signOut(),
    // spec.md §8: disconnect failures use the invite deletion message.
    onError: (error) => notifyFailure('delete invite', error),
  });
  return (
    <Card>
      <Group justify="space-between" align="center" wrap="wrap">
        <Stack gap={4} maw={560}>
          <Title order={2} size="h4">
            Sessions
          </Title>
          <Text size="sm" c="dimmed">
            Signs you out everywhere: on this browser and on every other device where you signed in. API tokens keep
            working.
          </Text>
        </Stack>
        <Button color="red" variant="light" leftSection={<IconDevicesOff size={16} />} onClick={open}>
          Disconnect from all devices
        </Button>
      </Group>
      <Modal opened={opened} onClose={close} title="Disconnect from all devices">
        <Stack>
          <Text size="sm">Every session ends, this one too: you will have to sign in again.</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button color="red" onClick={() => disconnect.mutate()} loading={disconnect.isPending}>
              Disconnect
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Card>
  );
}

/** /user/security: the accounts the user signs in with, and the sessions opened with them. */
export function SecurityPage() {
  return (
    <Stack gap="lg">
      <ConnectedAccountsCard />
      <SessionsCard />
    </Stack>
  );
}
