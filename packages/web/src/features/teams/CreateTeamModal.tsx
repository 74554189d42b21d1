import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, createTeamBody } from '@wharf/contract';
import { useNavigate } from 'react-router';
import { call } from '../../lib/api.ts';
import { contractResolver } from '../../lib/form.ts';
import { notifyFailure } from '../../lib/notify.ts';
import { useCurrentOrg } from '../orgs/currentOrg.tsx';

/** 'Add team' (spec.md §2): admins and owners group sites into teams. */
export function CreateTeamModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { org } = useCurrentOrg();
  const client = useQueryClient();
  const navigate = useNavigate();
  const form = useForm({ initialValues: { name: '' }, validate: contractResolver(createTeamBody) });
  const create = useMutation({
    mutationFn: (body: { name: string }) => call(api.createTeam, { params: { orgId: org._id }, body }),
    onSuccess: async (team) => {
      await client.invalidateQueries({ queryKey: [api.listTeams.path] });
      close();
      navigate(`/teams/${team._id}`);
    },
    onError: (error) => notifyFailure('create team', error),
  });

  const close = () => {
    form.reset();
    onClose();
  };

  return (
    <Modal opened={opened} onClose={close} title="Create team">
      <form onSubmit={form.onSubmit((values) => create.mutate(values))} noValidate>
        <Stack>
          <TextInput
            label="Name"
            description="Teams group the sites that the same people work on"
            placeholder="Marketing"
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
