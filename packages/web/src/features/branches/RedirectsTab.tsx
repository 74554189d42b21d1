import {
  ActionIcon,
  Button,
  Card,
  Group,
  Paper,
  SegmentedControl,
  Skeleton,
  Stack,
  Text,
  Textarea,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type Redirect } from '@wharf/contract';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { apiQuery, call } from '../../lib/api.ts';
import { notifyFailure, notifySuccess } from '../../lib/notify.ts';
import type { BranchDetail } from './branchQuery.ts';
import { type RedirectValues, redirectOf, redirectValues, validateRedirects } from './redirectValues.ts';

function RedirectsEditor({
  branch,
  redirects,
  canManage,
}: {
  branch: BranchDetail;
  redirects: Redirect[];
  canManage: boolean;
}) {
  const client = useQueryClient();
  const params = { siteId: branch.siteId, branchId: branch._id };
  const form = useForm<{ redirects: RedirectValues[] }>({
    initialValues: { redirects: redirects.map(redirectValues) },
    validate: validateRedirects,
  });
  const save = useMutation({
    mutationFn: (values: { redirects: RedirectValues[] }) =>
      call(api.setBranchRedirects, { params, body: { redirects: values.redirects.map(redirectOf) } }),
    onSuccess: (saved) => {
      const values = { redirects: saved.map(redirectValues) };
      form.setInitialValues(values);
      form.setValues(values);
      form.resetDirty(values);
      client.setQueryData(apiQuery(api.getBranchRedirects, { params }).queryKey, saved);
      notifySuccess('Saved branch redirects');
    },
    onError: (error) => notifyFailure('save redirects', error),
  });
  return (
    <Card>
      <form onSubmit={form.onSubmit((values) => save.mutate(values))} noValidate>
        <Stack>
          <Text size="sm" c="dimmed">
            Rules are matched before the release's files: a path answers with a file's content, or with what another
            server answers (reverse proxy).
          </Text>
          {form.values.redirects.length === 0 && (
            <Text size="sm" c="dimmed" fs="italic">
              No redirects
            </Text>
          )}
          {form.values.redirects.map((redirect, index) => (
            <Paper
              // biome-ignore lint/suspicious/noArrayIndexKey: rules are identified by position only
              key={index}
              withBorder
              p="sm"
              radius="md"
              role="group"
              aria-label={`Redirect ${index + 1}`}
            >
              <Stack gap="sm">
                <Group justify="space-between" wrap="nowrap">
                  <SegmentedControl
                    size="xs"
                    aria-label="Type"
                    data={[
                      { value: 'file', label: 'File' },
                      { value: 'reverse_proxy', label: 'Reverse proxy' },
                    ]}
                    disabled={!canManage}
                    {...form.getInputProps(`redirects.${index}.type`)}
                  />
                  {canManage && (
                    <Tooltip label="Remove" withArrow>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={`Remove redirect ${index + 1}`}
                        onClick={() => form.removeListItem('redirects', index)}
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Tooltip>
                  )}
                </Group>
                <TextInput
                  label="Path"
                  placeholder="/api"
                  withAsterisk
                  readOnly={!canManage}
                  {...form.getInputProps(`redirects.${index}.path`)}
                />
                {redirect.type === 'file' ? (
                  <Textarea
                    label="Content"
                    placeholder="User-agent: *"
                    autosize
                    minRows={2}
                    maxRows={10}
                    readOnly={!canManage}
                    styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } }}
                    {...form.getInputProps(`redirects.${index}.content`)}
                  />
                ) : (
                  <Group grow align="flex-start" wrap="wrap">
                    <TextInput
                      label="URL"
                      placeholder="https://api.example.com"
                      withAsterisk
                      readOnly={!canManage}
                      miw={220}
                      {...form.getInputProps(`redirects.${index}.url`)}
                    />
                    <TextInput
                      label="Strip path prefix"
                      placeholder="/api"
                      description="Optional: removed from the path before proxying"
                      readOnly={!canManage}
                      miw={220}
                      {...form.getInputProps(`redirects.${index}.stripPathPrefix`)}
                    />
                  </Group>
                )}
              </Stack>
            </Paper>
          ))}
          {canManage && (
            <Group justify="space-between">
              <Button
                variant="light"
                leftSection={<IconPlus size={16} />}
                onClick={() => form.insertListItem('redirects', redirectValues())}
              >
                Add redirect
              </Button>
              <Group gap="sm">
                <Button variant="default" onClick={() => form.reset()} disabled={!form.isDirty()}>
                  Discard
                </Button>
                <Button type="submit" loading={save.isPending} disabled={!form.isDirty()}>
                  Save
                </Button>
              </Group>
            </Group>
          )}
        </Stack>
      </form>
    </Card>
  );
}

/** The redirects tab of a branch: the editor of its rules of both types. */
export function RedirectsTab({ branch, canManage }: { branch: BranchDetail; canManage: boolean }) {
  const redirects = useQuery(
    apiQuery(api.getBranchRedirects, { params: { siteId: branch.siteId, branchId: branch._id } }),
  );
  if (redirects.error) return <ErrorPanel title="Could not get redirects" query={redirects} />;
  if (!redirects.data) return <Skeleton h={160} />;
  return <RedirectsEditor key={branch._id} branch={branch} redirects={redirects.data} canManage={canManage} />;
}
