import { TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { api, createTeamBody, type RouteBody } from '@wharf/contract';
import { useNavigate } from 'react-router';
import { FormModal, useCreateModal } from '../../components/FormModal.tsx';
import { call } from '../../lib/api.ts';
import { useCurrentOrg } from '../../lib/currentOrg.tsx';
import { contractResolver } from '../../lib/form.ts';

/** 'Add team' (spec.md §2): admins and owners group sites into teams. */
export function CreateTeamModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { org } = useCurrentOrg();
  const client = useQueryClient();
  const navigate = useNavigate();
  const form = useForm<RouteBody<typeof api.createTeam>>({
    initialValues: { name: '' },
    validate: contractResolver(createTeamBody),
  });
  const { modal } = useCreateModal({
    form,
    opened,
    onClose,
    create: (body) => call(api.createTeam, { params: { orgId: org._id }, body }),
    onCreated: async (team, close) => {
      await client.invalidateQueries({ queryKey: [api.listTeams.path] });
      close();
      navigate(`/teams/${team._id}`);
    },
    failedAction: 'create team',
  });

  return (
    <FormModal title="Create team" {...modal}>
      <TextInput
        label="Name"
        description="Teams group the sites that the same people work on"
        placeholder="Marketing"
        data-autofocus
        withAsterisk
        {...form.getInputProps('name')}
      />
    </FormModal>
  );
}
