import { Button, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDisclosure } from '@mantine/hooks';
import { IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type BuildHook, buildHookBody, type Repository, type Site } from '@wharf/contract';
import { useState } from 'react';
import { ConfirmModal } from '../../components/ConfirmModal.tsx';
import { CreatedSecret } from '../../components/CreatedSecret.tsx';
import { FormModal, useCreateModal } from '../../components/FormModal.tsx';
import listClasses from '../../components/ListRow.module.css';
import { RowList } from '../../components/ListRow.tsx';
import { apiQuery, call } from '../../lib/api.ts';
import { contractResolver } from '../../lib/form.ts';
import { notifyFailure, notifySuccess } from '../../lib/notify.ts';
import { exactTime, relativeTime } from '../../lib/time.ts';

function AddBuildHookModal({
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
  const form = useForm({
    initialValues: { name: '', gitBranch: productionBranch },
    validate: contractResolver(buildHookBody),
  });
  const { mutation, modal } = useCreateModal({
    form,
    opened,
    onClose,
    create: (body) => call(api.createBuildHook, { params: { siteId }, body }),
    onCreated: () => void client.invalidateQueries({ queryKey: [api.listBuildHooks.path] }),
    failedAction: 'create build hook',
  });
  const created = mutation.data;
  return (
    <FormModal
      title={created ? 'Build hook created' : 'Add build hook'}
      {...modal}
      size={created ? 'lg' : 'md'}
      submitLabel="Create build hook"
      done={
        created && (
          <CreatedSecret
            notice={`Anything that POSTs to this address builds ${created.gitBranch}. It is shown this once: keep it where you keep secrets.`}
            value={created.url}
            label={`Address of ${created.name}`}
            onDone={modal.close}
          >
            <Text size="sm" c="dimmed">
              For example: <code>curl -X POST {'<address>'}</code>
            </Text>
          </CreatedSecret>
        )
      }
    >
      <TextInput
        label="Name"
        description="What calls it, to recognise it later"
        placeholder="CMS publish"
        data-autofocus
        withAsterisk
        {...form.getInputProps('name')}
      />
      <TextInput
        label="Git branch"
        description="The branch it builds"
        withAsterisk
        {...form.getInputProps('gitBranch')}
      />
    </FormModal>
  );
}

function BuildHookRow({ siteId, hook }: { siteId: string; hook: BuildHook }) {
  const client = useQueryClient();
  const [deleting, setDeleting] = useState(false);
  const remove = useMutation({
    mutationFn: () => call(api.deleteBuildHook, { params: { siteId, buildHookId: hook._id } }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: [api.listBuildHooks.path] });
      setDeleting(false);
      notifySuccess(`Build hook ${hook.name} deleted`);
    },
    onError: (error) => notifyFailure('delete build hook', error),
  });
  return (
    <Group className={listClasses.row} justify="space-between" wrap="nowrap" aria-label={`Build hook ${hook.name}`}>
      <Stack gap={2} miw={0}>
        <Text fw={600} truncate>
          {hook.name}
        </Text>
        <Text size="xs" c="dimmed" title={exactTime(hook.createdAt)}>
          Builds {hook.gitBranch} · made {relativeTime(hook.createdAt)} ·{' '}
          {hook.lastUsedAt ? `called ${relativeTime(hook.lastUsedAt)}` : 'never called'}
        </Text>
      </Stack>
      <Button
        variant="subtle"
        color="red"
        size="compact-sm"
        leftSection={<IconTrash size={14} />}
        style={{ flexShrink: 0 }}
        onClick={() => setDeleting(true)}
      >
        Delete
      </Button>
      <ConfirmModal
        opened={deleting}
        onClose={() => setDeleting(false)}
        title="Delete the build hook"
        confirmLabel="Delete"
        loading={remove.isPending}
        onConfirm={() => remove.mutate()}
      >
        Its address stops building at once.
      </ConfirmModal>
    </Group>
  );
}

/** Settings › Repository: the site's build hooks, and its build cache. */
export function BuildHooksCard({ site, repository }: { site: Site; repository: Repository }) {
  const [adding, add] = useDisclosure(false);
  const [clearing, clear] = useDisclosure(false);
  const hooks = useQuery(apiQuery(api.listBuildHooks, { params: { siteId: site._id } }));
  const clearCache = useMutation({
    mutationFn: () => call(api.clearBuildCache, { params: { siteId: site._id } }),
    onSuccess: () => {
      clear.close();
      notifySuccess('Build cache cleared: the next build installs everything afresh');
    },
    onError: (error) => notifyFailure('clear build cache', error),
  });
  return (
    <Card>
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4">
            Build hooks
          </Title>
          <Button variant="default" onClick={add.open}>
            Add build hook
          </Button>
        </Group>
        <Text size="sm" c="dimmed">
          A secret address that builds a branch whenever something POSTs to it: a CMS after a publish, a schedule.
        </Text>
        {hooks.data && hooks.data.length > 0 && (
          <RowList>
            {hooks.data.map((hook) => (
              <BuildHookRow key={hook._id} siteId={site._id} hook={hook} />
            ))}
          </RowList>
        )}
        <Group justify="space-between" mt="sm">
          <Text size="sm" c="dimmed" maw={520}>
            Builds keep the site's <code>node_modules</code> and package downloads between them.
          </Text>
          <Button variant="default" onClick={clear.open}>
            Clear cache
          </Button>
        </Group>
      </Stack>
      <AddBuildHookModal
        siteId={site._id}
        productionBranch={repository.productionBranch}
        opened={adding}
        onClose={add.close}
      />
      <ConfirmModal
        opened={clearing}
        onClose={clear.close}
        title="Clear the build cache"
        confirmLabel="Clear cache"
        color="harbour"
        loading={clearCache.isPending}
        onConfirm={() => clearCache.mutate()}
      >
        The next build installs every dependency afresh.
      </ConfirmModal>
    </Card>
  );
}
