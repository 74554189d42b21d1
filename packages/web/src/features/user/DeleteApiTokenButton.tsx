import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiToken, api } from '@wharf/contract';
import { useNavigate } from 'react-router';
import { call } from '../../lib/api.ts';
import { notifyFailure } from '../../lib/notify.ts';

/** Deletes a token after confirmation, then goes back to the list. */
export function DeleteApiTokenButton({ token }: { token: ApiToken }) {
  const [opened, { open, close }] = useDisclosure(false);
  const client = useQueryClient();
  const navigate = useNavigate();
  const remove = useMutation({
    mutationFn: () => call(api.deleteApiToken, { params: { apiTokenId: token._id } }),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: [api.listApiTokens.path] });
      client.removeQueries({ queryKey: [api.getApiToken.path, { apiTokenId: token._id }] });
      navigate('/user/api-tokens');
    },
    onError: (error) => notifyFailure('delete api token', error),
  });
  return (
    <>
      <Button color="red" variant="light" leftSection={<IconTrash size={16} />} onClick={open}>
        Delete
      </Button>
      <Modal opened={opened} onClose={close} title="Delete token">
        <Stack>
          <Text size="sm">
            Delete <b>{token.name}</b>? Whatever uses it stops working at once. This cannot be undone.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button color="red" onClick={() => remove.mutate()} loading={remove.isPending}>
              Delete token
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
