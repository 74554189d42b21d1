import { Card, Group, SegmentedControl, Skeleton, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type Redirect } from '@wharf/contract';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { RemoveRowButton, RowsEditor } from '../../components/RowsEditor.tsx';
import { SaveButtons } from '../../components/SaveButtons.tsx';
import { apiQuery, call } from '../../lib/api.ts';
import { startFormFrom } from '../../lib/form.ts';
import { notifySuccess } from '../../lib/notify.ts';
import { useFormMutation } from '../../lib/useFormMutation.ts';
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
  const save = useFormMutation(form, {
    mutationFn: (values: { redirects: RedirectValues[] }) =>
      call(api.setBranchRedirects, { params, body: { redirects: values.redirects.map(redirectOf) } }),
    onSuccess: (saved) => {
      startFormFrom(form, { redirects: saved.map(redirectValues) });
      client.setQueryData(apiQuery(api.getBranchRedirects, { params }).queryKey, saved);
      notifySuccess('Saved branch redirects');
    },
    failedAction: 'save redirects',
  });
  return (
    <Card>
      <form onSubmit={form.onSubmit((values) => save.mutate(values))} noValidate>
        <Stack>
          <Text size="sm" c="dimmed">
            Rules are matched before the release's files: a path answers with a file's content, or with what another
            server answers (reverse proxy).
          </Text>
          <RowsEditor
            noun="redirect"
            rows={form.values.redirects}
            canEdit={canManage}
            onAdd={() => form.insertListItem('redirects', redirectValues())}
            onRemove={(index) => form.removeListItem('redirects', index)}
            renderRow={(redirect, index, removal) => (
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
                  {canManage && <RemoveRowButton {...removal} />}
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
            )}
            actions={
              <SaveButtons gap="sm" dirty={form.isDirty()} saving={save.isPending} onDiscard={() => form.reset()} />
            }
          />
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
