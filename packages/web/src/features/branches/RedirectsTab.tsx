import { Card, Group, SegmentedControl, Skeleton, Stack, Text, TextInput } from '@mantine/core';
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
import { RedirectRuleFields } from './RedirectRuleFields.tsx';
import { type RedirectValues, redirectField, redirectOf, redirectValues, validateRedirects } from './redirectValues.ts';

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
    fieldOf: redirectField,
  });
  return (
    <Card>
      <form onSubmit={form.onSubmit((values) => save.mutate(values))} noValidate>
        <Stack>
          <Text size="sm" c="dimmed">
            Rules are matched before the release's files: a path answers with a file's content, with what another server
            answers (reverse proxy), or sends the browser elsewhere (redirect).
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
                      { value: 'redirect', label: 'Redirect' },
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
                <RedirectRuleFields form={form} index={index} type={redirect.type} canManage={canManage} />
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

/** The redirects tab of a branch: the editor of its rules of every type. */
export function RedirectsTab({ branch, canManage }: { branch: BranchDetail; canManage: boolean }) {
  const redirects = useQuery(
    apiQuery(api.getBranchRedirects, { params: { siteId: branch.siteId, branchId: branch._id } }),
  );
  if (redirects.error) return <ErrorPanel title="Could not get redirects" query={redirects} />;
  if (!redirects.data) return <Skeleton h={160} />;
  return <RedirectsEditor key={branch._id} branch={branch} redirects={redirects.data} canManage={canManage} />;
}
