import { Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconInfoCircle } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, createSiteTokenBody, type SiteToken } from '@wharf/contract';
import { useState } from 'react';
import { call } from '../../lib/api.ts';
import { contractResolver } from '../../lib/form.ts';
import { notifyFailure } from '../../lib/notify.ts';
import { UploadCommand } from '../releases/UploadCommand.tsx';
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
    <Modal opened={opened} onClose={close} title={created ? 'Token created' : 'Add token'} size={created ? 'lg' : 'md'}>
      {created ? (
        <Stack>
          <Alert variant="light" icon={<IconInfoCircle />}>
            It may upload releases to this site and nothing else.
          </Alert>
          <SecretValue value={created.value} label={`Value of ${created.name}`} revealed />
          <Text size="sm">The upload command with this token, for your machine or a CI job:</Text>
          <UploadCommand siteId={siteId} token={created.value} />
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
