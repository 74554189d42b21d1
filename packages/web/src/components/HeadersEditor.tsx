import { Card, Group, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { type Header, siteHeadersBody } from '@wharf/contract';
import type { ReactNode } from 'react';
import { contractResolver } from '../lib/form.ts';
import { RemoveRowButton, RowsEditor } from './RowsEditor.tsx';
import { SaveButtons } from './SaveButtons.tsx';

/**
 * An editor of name/value headers (site and branch): names unique case-insensitively, Discard, and
 * Save once something changed.
 */
export function HeadersEditor({
  title,
  description,
  headers,
  saving,
  onSave,
  extraActions,
}: {
  title: ReactNode;
  description: ReactNode;
  headers: Header[];
  saving: boolean;
  /** Resolves true when saved: the form then starts over from what was saved. */
  onSave: (headers: Header[]) => Promise<boolean>;
  extraActions?: ReactNode;
}) {
  const form = useForm({ initialValues: { headers }, validate: contractResolver(siteHeadersBody) });
  const submit = form.onSubmit(async (values) => {
    if (!(await onSave(values.headers))) return;
    form.setInitialValues(values);
    form.resetDirty(values);
  });
  return (
    <Card>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Stack gap={4}>
            {title}
            <Text size="sm" c="dimmed">
              {description}
            </Text>
          </Stack>
          <RowsEditor
            noun="header"
            rows={form.values.headers}
            framed={false}
            onAdd={() => form.insertListItem('headers', { name: '', value: '' })}
            onRemove={(index) => form.removeListItem('headers', index)}
            renderRow={(_, index, removal) => (
              <Group align="flex-start" wrap="nowrap" gap="xs">
                <TextInput
                  label="Name"
                  placeholder="Cache-Control"
                  withAsterisk
                  style={{ flex: 2 }}
                  {...form.getInputProps(`headers.${index}.name`)}
                />
                <TextInput
                  label="Value"
                  placeholder="public, max-age=3600"
                  style={{ flex: 3 }}
                  {...form.getInputProps(`headers.${index}.value`)}
                />
                <RemoveRowButton {...removal} mt={26} size="lg" />
              </Group>
            )}
            actions={
              <SaveButtons gap="sm" dirty={form.isDirty()} saving={saving} onDiscard={() => form.reset()}>
                {extraActions}
              </SaveButtons>
            }
          />
        </Stack>
      </form>
    </Card>
  );
}
