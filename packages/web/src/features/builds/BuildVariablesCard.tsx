import { Badge, Button, Card, Code, Group, Stack, Text, Title } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type BuildVariable, type Site } from '@wharf/contract';
import { useState } from 'react';
import { ConfirmModal } from '../../components/ConfirmModal.tsx';
import listClasses from '../../components/ListRow.module.css';
import { RowList } from '../../components/ListRow.tsx';
import { apiQuery, call } from '../../lib/api.ts';
import { notifyFailure, notifySuccess } from '../../lib/notify.ts';
import { BuildVariableModal, contextLabels } from './BuildVariableModal.tsx';

function where(variable: BuildVariable) {
  return variable.context === 'branch' ? `Branch ${variable.gitBranch}` : contextLabels[variable.context];
}

function VariableRow({
  variable,
  onEdit,
  onDelete,
}: {
  variable: BuildVariable;
  onEdit: () => void;
  onDelete: () => void;
}) {
  return (
    <Group
      className={listClasses.row}
      justify="space-between"
      aria-label={`Variable ${variable.key}, ${where(variable)}`}
    >
      <Stack gap={4} miw={0}>
        <Group gap={6} wrap="wrap">
          <Text fw={600} ff="monospace" size="sm">
            {variable.key}
          </Text>
          <Badge size="sm" variant="light" color="gray">
            {where(variable)}
          </Badge>
          {variable.secret && (
            <Badge size="sm" variant="light" color="yellow">
              secret
            </Badge>
          )}
        </Group>
        <Code style={{ wordBreak: 'break-all' }}>{variable.value ?? '••••••'}</Code>
      </Stack>
      <Group gap={4} wrap="nowrap" style={{ flexShrink: 0 }}>
        <Button variant="subtle" size="compact-sm" leftSection={<IconPencil size={14} />} onClick={onEdit}>
          Change
        </Button>
        <Button variant="subtle" color="red" size="compact-sm" leftSection={<IconTrash size={14} />} onClick={onDelete}>
          Delete
        </Button>
      </Group>
    </Group>
  );
}

/** Settings › Repository: the variables builds get, for every build, production, previews or one branch. */
export function BuildVariablesCard({ site }: { site: Site }) {
  const client = useQueryClient();
  const [editing, setEditing] = useState<BuildVariable | 'new' | null>(null);
  const [deleting, setDeleting] = useState<BuildVariable | null>(null);
  const variables = useQuery(apiQuery(api.listBuildVariables, { params: { siteId: site._id } }));
  const remove = useMutation({
    mutationFn: (variable: BuildVariable) =>
      call(api.deleteBuildVariable, { params: { siteId: site._id, buildVariableId: variable._id } }),
    onSuccess: (_done, variable) => {
      void client.invalidateQueries({ queryKey: [api.listBuildVariables.path] });
      setDeleting(null);
      notifySuccess(`Variable ${variable.key} deleted`);
    },
    onError: (error) => notifyFailure('delete build variable', error),
  });
  return (
    <Card>
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4">
            Build variables
          </Title>
          <Button variant="default" onClick={() => setEditing('new')}>
            Add variable
          </Button>
        </Group>
        <Text size="sm" c="dimmed">
          Environment variables of the build's commands. A branch's own value wins over its context's (production or
          previews), which wins over every build's. Wharf adds <code>WHARF_CONTEXT</code>, <code>WHARF_GIT_BRANCH</code>{' '}
          and <code>WHARF_COMMIT</code>.
        </Text>
        {variables.data && variables.data.length > 0 && (
          <RowList>
            {variables.data.map((variable) => (
              <VariableRow
                key={variable._id}
                variable={variable}
                onEdit={() => setEditing(variable)}
                onDelete={() => setDeleting(variable)}
              />
            ))}
          </RowList>
        )}
      </Stack>
      {editing && (
        <BuildVariableModal
          key={editing === 'new' ? 'new' : editing._id}
          siteId={site._id}
          editing={editing === 'new' ? null : editing}
          opened
          onClose={() => setEditing(null)}
        />
      )}
      <ConfirmModal
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title="Delete the build variable"
        confirmLabel="Delete"
        loading={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
      >
        Builds from now on go without <b>{deleting?.key}</b> ({deleting && where(deleting)}).
      </ConfirmModal>
    </Card>
  );
}
