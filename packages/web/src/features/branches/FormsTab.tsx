import { Button, Card, Code, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconForms } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { api, type Release } from '@wharf/contract';
import { EmptyState } from '../../components/EmptyState.tsx';
import { MailOffNotice } from '../../components/MailOffNotice.tsx';
import { RowsEditor } from '../../components/RowsEditor.tsx';
import { SaveButtons } from '../../components/SaveButtons.tsx';
import { call } from '../../lib/api.ts';
import { startFormFrom } from '../../lib/form.ts';
import { notifySuccess } from '../../lib/notify.ts';
import { useFormMutation } from '../../lib/useFormMutation.ts';
import { SubmissionsList } from '../submissions/SubmissionsList.tsx';
import { type BranchDetail, branchQuery } from './branchQuery.ts';
import { type FormValues, formOf, formValues, validateForms } from './formValues.ts';

function FormsEditor({ branch, release, canManage }: { branch: BranchDetail; release: Release; canManage: boolean }) {
  const client = useQueryClient();
  const form = useForm<{ forms: FormValues[] }>({
    initialValues: { forms: release.forms.map(formValues) },
    validate: validateForms,
  });
  const save = useFormMutation(form, {
    mutationFn: (values: { forms: FormValues[] }) =>
      call(api.setReleaseForms, { params: { releaseId: release._id }, body: { forms: values.forms.map(formOf) } }),
    onSuccess: async (saved) => {
      startFormFrom(form, { forms: saved.forms.map(formValues) });
      client.setQueryData(branchQuery(branch.siteId, branch._id).queryKey, { ...branch, currentRelease: saved });
      notifySuccess('Saved forms');
      await client.invalidateQueries({ queryKey: [api.listReleases.path] });
    },
    failedAction: 'save forms',
  });
  return (
    <Card>
      <form onSubmit={form.onSubmit((values) => save.mutate(values))} noValidate>
        <Stack>
          <Text size="sm" c="dimmed">
            Forms of the release <b>{release.name}</b>: an HTML form that posts to <Code>/.wharf/forms/{'{name}'}</Code>{' '}
            on the site is stored (db) or mailed (email).
          </Text>
          {form.values.forms.some((entry) => entry.type === 'email') && (
            <MailOffNotice>Submissions of email forms are stored, but no mail is sent.</MailOffNotice>
          )}
          <RowsEditor
            noun="form"
            rows={form.values.forms}
            canEdit={canManage}
            onAdd={() => form.insertListItem('forms', formValues())}
            onRemove={(index) => form.removeListItem('forms', index)}
            renderRow={(entry, index, removal) => (
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
                  <Button variant="subtle" color="red" mt={25} onClick={removal.onClick} aria-label={removal.label}>
                    Remove
                  </Button>
                )}
              </Group>
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

function FormDefinitions({ branch, canManage }: { branch: BranchDetail; canManage: boolean }) {
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

/**
 * The forms tab of a branch: the form definitions of the release it serves, and for those who
 * manage the site, what visitors posted to the branch's forms.
 */
export function FormsTab({ branch, canManage }: { branch: BranchDetail; canManage: boolean }) {
  return (
    <Stack>
      <FormDefinitions branch={branch} canManage={canManage} />
      {canManage && (
        <Card>
          <Stack>
            <Title order={2} size="h4">
              Submissions
            </Title>
            <SubmissionsList
              siteId={branch.siteId}
              branchId={branch._id}
              forms={branch.currentRelease?.forms.map((form) => form.name)}
            />
          </Stack>
        </Card>
      )}
    </Stack>
  );
}
