import { Alert, Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconInfoCircle } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, createSiteTokenBody, type SiteToken } from '@wharf/contract';
import { useState } from 'react';
import { call } from '../../lib/api.ts';
import { contractResolver } from '../../lib/form.ts';
import { notifyFailure } from '../../lib/notify.ts';
import { SecretValue } from './SecretValue.tsx';

/** 'Add token': a name, then the new token's value to copy into the upload command or CI. */
export function AddSiteTokenModal({
  siteId,
  opened,
  onClose,
}: {
  siteId: string;
  opened: boolean;
  onClose: () => void;
}) {
  const client = useQueryClient();
  const [created, setCreated] = useState<SiteToken | null>(null);
  const form = useForm({ initialValues: { name: '' }, validate: contractResolver(createSiteTokenBody) });
  const create = useMutation({
    mutationFn: (body: { name: string }) => call(api.createSiteToken, { params: { siteId }, body }),
    onSuccess: async (token) => {
      setCreated(token);
      await client.invalidateQueries({ queryKey: [api.listSiteTokens.path] });
    },
    onError: (error) => notifyFailure('create tokens', error),
  });
  const close = () => {
    form.reset();
    setCreated(null);
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title={created ? 'Token created' : 'Add token'}>
      {created ? (
        <Stack>
          <Alert variant="light" icon={<IconInfoCircle />}>
            It may upload releases to this site and nothing else. Pass it to the upload command with --token.
          </Alert>
          <SecretValue value={created.value} label={`Value of ${created.name}`} revealed />
          <Group justify="flex-end">
            <Button onClick={close}>Done</Button>
          </Group>
        </Stack>
      ) : (
        <form onSubmit={form.onSubmit((values) => create.mutate(values))} noValidate>
          <Stack>
            <TextInput
              label="Name"
              description="Where it is used, to recognise it later"
              placeholder="GitHub Actions"
              data-autofocus
              withAsterisk
              {...form.getInputProps('name')}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" loading={create.isPending}>
                Create token
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
