import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, createOrgBody } from '@wharf/contract';
import { call } from '../../lib/api.ts';
import { contractResolver } from '../../lib/form.ts';
import { notifyFailure } from '../../lib/notify.ts';
import { useCurrentOrgState } from './currentOrg.tsx';

/** 'Create org': the new organization becomes the current one. */
export function CreateOrgModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const client = useQueryClient();
  const { select } = useCurrentOrgState();
  const form = useForm({ initialValues: { name: '' }, validate: contractResolver(createOrgBody) });
  const create = useMutation({
    mutationFn: (body: { name: string }) => call(api.createOrg, { body }),
    onSuccess: async (org) => {
      await client.invalidateQueries({ queryKey: [api.listOrgs.path] });
      close();
      await select(org._id);
    },
    onError: (error) => notifyFailure('create org', error),
  });

  const close = () => {
    form.reset();
    onClose();
  };

  return (
    <Modal opened={opened} onClose={close} title="Create org">
      <form onSubmit={form.onSubmit((values) => create.mutate(values))} noValidate>
        <Stack>
          <TextInput
            label="Name"
            description="The name of your company, project or group"
            placeholder="Acme"
            data-autofocus
            withAsterisk
            {...form.getInputProps('name')}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Create
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
