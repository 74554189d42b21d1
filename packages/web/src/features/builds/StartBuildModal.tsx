import { TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { api, startBuildBody } from '@wharf/contract';
import { useNavigate } from 'react-router';
import { FormModal, useCreateModal } from '../../components/FormModal.tsx';
import { call } from '../../lib/api.ts';
import { contractResolver } from '../../lib/form.ts';

/** 'Build now': which git branch (the production branch unless changed), then the build's page. */
export function StartBuildModal({
  siteId,
  productionBranch,
  opened,
  onClose,
}: {
  siteId: string;
  productionBranch: string;
  opened: boolean;
  onClose: () => void;
}) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const form = useForm({ initialValues: { gitBranch: productionBranch }, validate: contractResolver(startBuildBody) });
  const { modal } = useCreateModal({
    form,
    opened,
    onClose,
    create: (body) => call(api.startBuild, { params: { siteId }, body }),
    onCreated: (build, close) => {
      void client.invalidateQueries({ queryKey: [api.listBuilds.path] });
      close();
      navigate(`/sites/${siteId}/builds/${build._id}`);
    },
    failedAction: 'start build',
  });
  return (
    <FormModal title="Build now" {...modal} submitLabel="Build">
      <TextInput
        label="Git branch"
        description={`Builds its latest commit; ${productionBranch} publishes to the site's main branch`}
        data-autofocus
        withAsterisk
        {...form.getInputProps('gitBranch')}
      />
    </FormModal>
  );
}
