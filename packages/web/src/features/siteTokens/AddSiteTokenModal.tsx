import { Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { api, createSiteTokenBody, type RouteBody } from '@wharf/contract';
import { CreatedSecret } from '../../components/CreatedSecret.tsx';
import { FormModal, useCreateModal } from '../../components/FormModal.tsx';
import { UploadCommand } from '../../components/UploadCommand.tsx';
import { call } from '../../lib/api.ts';
import { contractResolver } from '../../lib/form.ts';

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
  const form = useForm<RouteBody<typeof api.createSiteToken>>({
    initialValues: { name: '' },
    validate: contractResolver(createSiteTokenBody),
  });
  const { mutation, modal } = useCreateModal({
    form,
    opened,
    onClose,
    create: (body) => call(api.createSiteToken, { params: { siteId }, body }),
    // The value shows at once; the list catches up behind the modal.
    onCreated: () => void client.invalidateQueries({ queryKey: [api.listSiteTokens.path] }),
    failedAction: 'create tokens',
  });
  const created = mutation.data;
  return (
    <FormModal
      title={created ? 'Token created' : 'Add token'}
      {...modal}
      size={created ? 'lg' : 'md'}
      submitLabel="Create token"
      done={
        created && (
          <CreatedSecret
            notice="It may upload releases to this site and nothing else."
            value={created.value}
            label={`Value of ${created.name}`}
            onDone={modal.close}
          >
            <Text size="sm">The upload command with this token, for your machine or a CI job:</Text>
            <UploadCommand siteId={siteId} token={created.value} />
          </CreatedSecret>
        )
      }
    >
      <TextInput
        label="Name"
        description="Where it is used, to recognise it later"
        placeholder="GitHub Actions"
        data-autofocus
        withAsterisk
        {...form.getInputProps('name')}
      />
    </FormModal>
  );
}
