import { Button, Card, Code, Group, Paper, Select, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconForms, IconPlus } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type Release } from '@wharf/contract';
import { EmptyState } from '../../components/EmptyState.tsx';
import { call } from '../../lib/api.ts';
import { notifyFailure, notifySuccess } from '../../lib/notify.ts';
import { type BranchDetail, branchQuery } from './branchQuery.ts';
import { type FormValues, formOf, formValues, validateForms } from './formValues.ts';

function FormsEditor({ branch, release, canManage }: { branch: BranchDetail; release: Release; canManage: boolean }) {
  const client = useQueryClient();
  const form = useForm<{ forms: FormValues[] }>({
    initialValues: { forms: release.forms.map(formValues) },
    validate: validateForms,
  });
  const save = useMutation({
    mutationFn: (values: { forms: FormValues[] }) =>
      call(api.setReleaseForms, { params: { releaseId: release._id }, body: { forms: values.forms.map(formOf) } }),
    onSuccess: async (saved) => {
      const values = { forms: saved.forms.map(formValues) };
      form.setInitialValues(values);
      form.setValues(values);
      form.resetDirty(values);
      client.setQueryData(branchQuery(branch.siteId, branch._id).queryKey, { ...branch, currentRelease: saved });
      notifySuccess('Saved forms');
      await client.invalidateQueries({ queryKey: [api.listReleases.path] });
    },
    onError: (error) => notifyFailure('save forms', error),
  });
  return (
    <Card>
      <form onSubmit={form.onSubmit((values) => save.mutate(values))} noValidate>
        <Stack>
          <Text size="sm" c="dimmed">
            Forms of the release <b>{release.name}</b>: an HTML form that posts to <Code>/.wharf/forms/{'{name}'}</Code>{' '}
            on the site is stored (db) or mailed (email).
          </Text>
          {form.values.forms.length === 0 && (
            <Text size="sm" c="dimmed" fs="italic">
              No forms
            </Text>
          )}
          {form.values.forms.map((entry, index) => (
            <Paper
              // biome-ignore lint/suspicious/noArrayIndexKey: forms are identified by position only
              key={index}
              withBorder
              p="sm"
              radius="md"
              role="group"
              aria-label={`Form ${index + 1}`}
            >
              <Group align="flex-start" wrap="wrap" gap="sm">
                <Select
                  label="Type"
                  data={[
                    { value: 'db', label: 'Stored (db)' },
                    { value: 'email', label: 'Mailed (email)' },
                  ]}
                  allowDeselect={false}
                  w={160}
                  readOnly={!canManage}
                  {...form.getInputProps(`forms.${index}.type`)}
                />
                <TextInput
                  label="Name"
                  placeholder="contact"
                  withAsterisk
                  readOnly={!canManage}
                  style={{ flex: '1 1 160px' }}
                  {...form.getInputProps(`forms.${index}.name`)}
                />
                {entry.type === 'email' && (
                  <TextInput
                    label="Recipient"
                    placeholder="team@example.com"
                    withAsterisk
                    readOnly={!canManage}
                    style={{ flex: '1 1 200px' }}
                    {...form.getInputProps(`forms.${index}.recipient`)}
                  />
                )}
                {canManage && (
                  <Button
                    variant="subtle"
                    color="red"
                    mt={25}
                    onClick={() => form.removeListItem('forms', index)}
                    aria-label={`Remove form ${index + 1}`}
                  >
                    Remove
                  </Button>
                )}
              </Group>
            </Paper>
          ))}
          {canManage && (
            <Group justify="space-between">
              <Button
                variant="light"
                leftSection={<IconPlus size={16} />}
                onClick={() => form.insertListItem('forms', formValues())}
              >
                Add form
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

/** The forms tab of a branch: the form definitions of the release it serves. */
export function FormsTab({ branch, canManage }: { branch: BranchDetail; canManage: boolean }) {
  if (!branch.currentRelease)
    return (
      <EmptyState
        icon={<IconForms size={26} stroke={1.5} />}
        title="No release"
        description="Forms belong to a release: point the branch at one first."
      />
    );
  return (
    <FormsEditor
      key={branch.currentRelease._id}
      branch={branch}
      release={branch.currentRelease}
      canManage={canManage}
    />
  );
}
