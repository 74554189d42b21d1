import { Button, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, createBranchBody, MAX_PAGE_SIZE } from '@wharf/contract';
import { useNavigate } from 'react-router';
import { apiQuery, call } from '../../lib/api.ts';
import { contractResolver } from '../../lib/form.ts';
import { notifyFailure } from '../../lib/notify.ts';
import { exactTime } from '../../lib/time.ts';
import { NameCheckIndicator } from './NameCheckIndicator.tsx';
import { useBranchNameCheck } from './useBranchNameCheck.ts';

interface Values {
  name: string;
  releaseId: string | null;
}

/** 'Add branch': a name the server checks as it is typed, and the release the branch serves. */
export function AddBranchModal({ siteId, opened, onClose }: { siteId: string; opened: boolean; onClose: () => void }) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const releases = useQuery({
    ...apiQuery(api.listReleases, { params: { siteId }, query: { size: MAX_PAGE_SIZE } }),
    enabled: opened,
  });
  const form = useForm<Values>({
    initialValues: { name: '', releaseId: null },
    validate: contractResolver(createBranchBody),
  });
  const nameCheck = useBranchNameCheck(siteId, form.values.name);
  const create = useMutation({
    mutationFn: (body: Values) => call(api.createBranch, { params: { siteId }, body }),
    onSuccess: async (branch) => {
      await Promise.all([
        client.invalidateQueries({ queryKey: [api.listBranches.path] }),
        client.invalidateQueries({ queryKey: [api.getSite.path] }),
      ]);
      close();
      navigate(`/sites/${siteId}/branches/${branch._id}`);
    },
    onError: (error) => notifyFailure('create branch', error),
  });

  const close = () => {
    form.reset();
    onClose();
  };
  const submit = form.onSubmit((values) => {
    if (nameCheck.error) form.setFieldError('name', nameCheck.error);
    else create.mutate(values);
  });
  const items = releases.data?.items ?? [];

  return (
    <Modal opened={opened} onClose={close} title="Add branch">
      <form onSubmit={submit} noValidate>
        <Stack>
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
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Add branch
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
