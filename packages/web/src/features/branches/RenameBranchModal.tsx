import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, branchNameBody, type RouteBody } from '@wharf/contract';
import { NameCheckIndicator } from '../../components/NameCheckIndicator.tsx';
import { call } from '../../lib/api.ts';
import { contractResolver } from '../../lib/form.ts';
import { notifyFailure } from '../../lib/notify.ts';
import { useBranchNameCheck } from '../../lib/useNameCheck.ts';
import type { BranchDetail } from './branchQuery.ts';

/** Renames a branch: its address follows its name. */
export function RenameBranchModal({ branch, onClose }: { branch: BranchDetail; onClose: () => void }) {
  const client = useQueryClient();
  const form = useForm({ initialValues: { name: branch.name }, validate: contractResolver(branchNameBody) });
  const nameCheck = useBranchNameCheck(branch.siteId, form.values.name, branch.name);
  const rename = useMutation({
    mutationFn: (body: RouteBody<typeof api.renameBranch>) =>
      call(api.renameBranch, { params: { siteId: branch.siteId, branchId: branch._id }, body }),
    onSuccess: async () => {
      onClose();
      await Promise.all(
        [api.getBranch, api.listBranches, api.getSite, api.listReleases].map((route) =>
          client.invalidateQueries({ queryKey: [route.path] }),
        ),
      );
    },
    onError: (error) => notifyFailure('rename branch', error),
  });
  const submit = form.onSubmit((values) => {
    if (nameCheck.error) form.setFieldError('name', nameCheck.error);
    else rename.mutate(values);
  });
  return (
    <Modal opened onClose={onClose} title="Rename branch">
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label="Name"
            description="The branch's address changes with its name"
            withAsterisk
            data-autofocus
            {...form.getInputProps('name')}
            error={form.errors.name ?? nameCheck.error}
            rightSection={<NameCheckIndicator check={nameCheck} />}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={rename.isPending} disabled={!form.isDirty()}>
              Rename
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
