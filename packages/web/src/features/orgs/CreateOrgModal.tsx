import { TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { api, createOrgBody, type RouteBody } from '@wharf/contract';
import { FormModal, useCreateModal } from '../../components/FormModal.tsx';
import { call } from '../../lib/api.ts';
import { useCurrentOrgState } from '../../lib/currentOrg.tsx';
import { contractResolver } from '../../lib/form.ts';

/** 'Create org': the new organization becomes the current one. */
export function CreateOrgModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const client = useQueryClient();
  const { select } = useCurrentOrgState();
  const form = useForm<RouteBody<typeof api.createOrg>>({
    initialValues: { name: '' },
    validate: contractResolver(createOrgBody),
  });
  const { modal } = useCreateModal({
    form,
    opened,
    onClose,
    create: (body) => call(api.createOrg, { body }),
    onCreated: async (org, close) => {
      await client.invalidateQueries({ queryKey: [api.listOrgs.path] });
      close();
      await select(org._id);
    },
    failedAction: 'create org',
  });

  return (
    <FormModal title="Create org" {...modal}>
      <TextInput
        label="Name"
        description="The name of your company, project or group"
        placeholder="Acme"
        data-autofocus
        withAsterisk
        {...form.getInputProps('name')}
      />
    </FormModal>
  );
}
