import { Select, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, createBranchBody, MAX_PAGE_SIZE, type RouteBody } from '@wharf/contract';
import { useNavigate } from 'react-router';
import { FormModal, useCreateModal } from '../../components/FormModal.tsx';
import { NameCheckIndicator } from '../../components/NameCheckIndicator.tsx';
import { apiQuery, call } from '../../lib/api.ts';
import { contractResolver, unlessNameTaken } from '../../lib/form.ts';
import { exactTime } from '../../lib/time.ts';
import { useBranchNameCheck } from '../../lib/useNameCheck.ts';

/** 'Add branch': a name the server checks as it is typed, and the release the branch serves. */
export function AddBranchModal({ siteId, opened, onClose }: { siteId: string; opened: boolean; onClose: () => void }) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const releases = useQuery({
    ...apiQuery(api.listReleases, { params: { siteId }, query: { size: MAX_PAGE_SIZE } }),
    enabled: opened,
  });
  const form = useForm<Required<RouteBody<typeof api.createBranch>>>({
    initialValues: { name: '', releaseId: null },
    validate: contractResolver(createBranchBody),
  });
  const nameCheck = useBranchNameCheck(siteId, form.values.name);
  const { mutation, modal } = useCreateModal({
    form,
    opened,
    onClose,
    create: (body) => call(api.createBranch, { params: { siteId }, body }),
    onCreated: async (branch, close) => {
      await Promise.all([
        client.invalidateQueries({ queryKey: [api.listBranches.path] }),
        client.invalidateQueries({ queryKey: [api.getSite.path] }),
      ]);
      close();
      navigate(`/sites/${siteId}/branches/${branch._id}`);
    },
    failedAction: 'create branch',
  });
  const items = releases.data?.items ?? [];

  return (
    <FormModal
      title="Add branch"
      {...modal}
      submitLabel="Add branch"
      onSubmit={unlessNameTaken(form, nameCheck, mutation.mutate)}
    >
      <TextInput
        label="Name"
        description="Each branch is served at its own address, such as a preview of the next version"
        placeholder="staging"
        data-autofocus
        withAsterisk
        {...form.getInputProps('name')}
        error={form.errors.name ?? nameCheck.error}
        rightSection={<NameCheckIndicator check={nameCheck} />}
      />
      <Select
        label="Release"
        description="What the branch serves; upload one later if none fits"
        placeholder={items.length === 0 ? 'No releases yet' : 'No release for now'}
        data={items.map((release) => ({
          value: release._id,
          label: `${release.name} · ${exactTime(release.date)}`,
        }))}
        searchable
        clearable
        nothingFoundMessage="No releases"
        {...form.getInputProps('releaseId')}
      />
    </FormModal>
  );
}
