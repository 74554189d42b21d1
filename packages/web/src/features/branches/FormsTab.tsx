import {
  Badge,
  Button,
  Card,
  Code,
  Group,
  MultiSelect,
  Select,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type Branch, type SiteForm } from '@wharf/contract';
import { useRef } from 'react';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { MailOffNotice } from '../../components/MailOffNotice.tsx';
import { RowsEditor } from '../../components/RowsEditor.tsx';
import { SaveButtons } from '../../components/SaveButtons.tsx';
import { apiQuery, call } from '../../lib/api.ts';
import { startFormFrom } from '../../lib/form.ts';
import { notifySuccess } from '../../lib/notify.ts';
import { useFormMutation } from '../../lib/useFormMutation.ts';
import { SubmissionsList } from '../submissions/SubmissionsList.tsx';
import type { BranchDetail } from './branchQuery.ts';
import { type FormValues, formOf, formValues, isOnBranch, validateForms } from './formValues.ts';

interface EditorProps {
  branch: BranchDetail;
  forms: SiteForm[];
  branches: Branch[];
  canManage: boolean;
}

/** The badges of a row: found in the HTML (while unchanged), and whether this branch takes its posts. */
function FormBadges({ entry, saved, branchId }: { entry: FormValues; saved: SiteForm | undefined; branchId: string }) {
  const unchanged = saved !== undefined && saved.type === entry.type && saved.name === entry.name && entry.detected;
  return (
    <Group gap={6} mt={30}>
      {unchanged && (
        <Badge variant="light" color="teal" title="Found in the HTML of an upload">
          detected
        </Badge>
      )}
      {!isOnBranch(entry, branchId) && (
        <Badge variant="light" color="gray">
          not on this branch
        </Badge>
      )}
    </Group>
  );
}

function FormsEditor({ branch, forms, branches, canManage }: EditorProps) {
  const client = useQueryClient();
  const params = { siteId: branch.siteId };
  // The names the site has as last saved: those are kept as they are, even outside spec.md's pattern.
  const siteNames = useRef<string[]>([]);
  siteNames.current = forms.map((saved) => saved.name);
  const form = useForm<{ forms: FormValues[] }>({
    initialValues: { forms: forms.map(formValues) },
    validate: (values) => validateForms(values, siteNames.current),
  });
  const save = useFormMutation(form, {
    mutationFn: (values: { forms: FormValues[] }) =>
      call(api.setSiteForms, { params, body: { forms: values.forms.map(formOf) } }),
    onSuccess: async (saved) => {
      startFormFrom(form, { forms: saved.map(formValues) });
      client.setQueryData(apiQuery(api.listSiteForms, { params }).queryKey, saved);
      notifySuccess('Saved forms');
      await client.invalidateQueries({ queryKey: [api.getBranch.path] });
    },
    failedAction: 'save forms',
  });
  const savedByName = new Map(forms.map((saved) => [saved.name, saved]));
  const branchChoices = branches.map((choice) => ({ value: choice._id, label: choice.name }));
  return (
    <Card>
      <form onSubmit={form.onSubmit((values) => save.mutate(values))} noValidate>
        <Stack>
          <Text size="sm" c="dimmed">
            Forms of the site: they stay through every deploy. A page posts to <Code>/.wharf/forms/{'{name}'}</Code>, or
            to itself with a <Code>form-name</Code> field as on Netlify; submissions are stored (db) or mailed (email).
            Forms marked <Code>data-netlify</Code> or <Code>data-wharf</Code> in the HTML are added at each upload.
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
                <MultiSelect
                  label="Branches"
                  placeholder={entry.branches.length === 0 ? 'Every branch' : undefined}
                  data={branchChoices}
                  readOnly={!canManage}
                  clearable={canManage}
                  style={{ flex: '1 1 200px' }}
                  {...form.getInputProps(`forms.${index}.branches`)}
                />
                <FormBadges entry={entry} saved={savedByName.get(entry.name)} branchId={branch._id} />
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

/** The site's forms, with its branches to narrow them to. */
function FormDefinitions({ branch, canManage }: { branch: BranchDetail; canManage: boolean }) {
  const params = { siteId: branch.siteId };
  const forms = useQuery(apiQuery(api.listSiteForms, { params }));
  const branches = useQuery(apiQuery(api.listBranches, { params }));
  if (forms.error) return <ErrorPanel title="Could not get forms" query={forms} />;
  if (branches.error) return <ErrorPanel title="Could not list branches" query={branches} />;
  if (!forms.data || !branches.data) return <Skeleton h={160} />;
  return (
    <FormsEditor
      key={branch.siteId}
      branch={branch}
      forms={forms.data}
      branches={branches.data}
      canManage={canManage}
    />
  );
}

/**
 * The forms tab of a branch: the site's forms (a deploy keeps them; those an upload's HTML marks
 * are added, shown as detected), and for those who manage the site, what visitors posted to the
 * branch's forms.
 */
export function FormsTab({ branch, canManage }: { branch: BranchDetail; canManage: boolean }) {
  const forms = useQuery(apiQuery(api.listSiteForms, { params: { siteId: branch.siteId } }));
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
              forms={forms.data?.map((form) => form.name)}
            />
          </Stack>
        </Card>
      )}
    </Stack>
  );
}
