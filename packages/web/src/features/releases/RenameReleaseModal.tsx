import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, name, type Release, type RouteBody } from '@wharf/contract';
import { z } from 'zod';
import { call } from '../../lib/api.ts';
import { contractResolver } from '../../lib/form.ts';
import { notifyFailure } from '../../lib/notify.ts';

const renameReleaseBody = z.object({ name });

/** Renames a release; Save stays disabled until the name changed. */
export function RenameReleaseModal({ release, onClose }: { release: Release; onClose: () => void }) {
  const client = useQueryClient();
  const form = useForm({ initialValues: { name: release.name }, validate: contractResolver(renameReleaseBody) });
  const rename = useMutation({
    mutationFn: (body: RouteBody<typeof api.renameRelease>) =>
      call(api.renameRelease, { params: { releaseId: release._id }, body }),
    onSuccess: async () => {
      onClose();
      await Promise.all([
        client.invalidateQueries({ queryKey: [api.listReleases.path] }),
        client.invalidateQueries({ queryKey: [api.getBranch.path] }),
      ]);
    },
    onError: (error) => notifyFailure('rename releases', error),
  });
  return (
    <Modal opened onClose={onClose} title="Rename release">
      <form onSubmit={form.onSubmit((values) => rename.mutate(values))} noValidate>
        <Stack>
          <TextInput label="Name" withAsterisk data-autofocus {...form.getInputProps('name')} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={rename.isPending} disabled={!form.isDirty()}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
