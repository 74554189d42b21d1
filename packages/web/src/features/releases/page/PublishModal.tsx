import { Autocomplete, Button, Group, Modal, Skeleton, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type Branch, name, type Release, type Site } from '@wharf/contract';
import { z } from 'zod';
import { ErrorPanel } from '../../../components/ErrorPanel.tsx';
import { apiQuery, call } from '../../../lib/api.ts';
import { contractResolver } from '../../../lib/form.ts';
import { notifyFailure, notifySuccess } from '../../../lib/notify.ts';

const publishBody = z.object({ branch: name });

/**
 * Points a branch at the release: the main branch unless another is chosen; a name the site has no
 * branch of makes one, as an upload does. Rolling a branch back is publishing an older release.
 */
export function PublishModal({ site, release, onClose }: { site: Site; release: Release; onClose: () => void }) {
  const branches = useQuery(apiQuery(api.listBranches, { params: { siteId: site._id } }));
  return (
    <Modal opened onClose={onClose} title={`Publish “${release.name}”`}>
      {branches.error && <ErrorPanel title="Could not list branches" query={branches} />}
      {branches.isPending && <Skeleton h={120} />}
      {branches.data && <PublishForm site={site} release={release} branches={branches.data} onClose={onClose} />}
    </Modal>
  );
}

function PublishForm({
  site,
  release,
  branches,
  onClose,
}: {
  site: Site;
  release: Release;
  branches: Branch[];
  onClose: () => void;
}) {
  const client = useQueryClient();
  const main = branches.find((branch) => branch._id === site.mainBranch)?.name ?? '';
  const form = useForm({ initialValues: { branch: main }, validate: contractResolver(publishBody) });
  const publish = useMutation({
    mutationFn: ({ branch }: { branch: string }) =>
      call(api.publishRelease, { params: { releaseId: release._id }, body: { branch } }),
    onSuccess: async (branch) => {
      onClose();
      notifySuccess(`The branch ${branch.name} serves “${release.name}”`);
      await Promise.all(
        [api.getRelease, api.listReleases, api.listBranches, api.getBranch].map((route) =>
          client.invalidateQueries({ queryKey: [route.path] }),
        ),
      );
    },
    onError: (error) => notifyFailure('publish release', error),
  });
  return (
    <form onSubmit={form.onSubmit((values) => publish.mutate(values))} noValidate>
      <Stack>
        <Autocomplete
          label="Branch"
          description="The branch that serves it from now on; a new name makes a branch"
          withAsterisk
          data-autofocus
          data={branches.map((branch) => branch.name)}
          {...form.getInputProps('branch')}
        />
        <Text size="sm" c="dimmed">
          Visitors of the branch get this release at once; its own address stays as it is.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={publish.isPending}>
            Publish
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
