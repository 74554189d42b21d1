import { Card, Group, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { type Header, siteHeadersBody } from '@wharf/contract';
import type { ReactNode } from 'react';
import { contractResolver } from '../lib/form.ts';
import { headerOf, headerValues } from './headerValues.ts';
import { RemoveRowButton, RowsEditor } from './RowsEditor.tsx';
import { SaveButtons } from './SaveButtons.tsx';

/**
 * An editor of headers (site and branch), each for every path or the paths of a pattern: names
 * unique case-insensitively per path, Discard, and Save once something changed.
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
  const form = useForm({
    initialValues: { headers: headers.map(headerValues) },
    validate: contractResolver(siteHeadersBody),
  });
  const submit = form.onSubmit(async (values) => {
    if (!(await onSave(values.headers.map(headerOf)))) return;
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
            onAdd={() => form.insertListItem('headers', headerValues())}
            onRemove={(index) => form.removeListItem('headers', index)}
            renderRow={(_, index, removal) => (
              // The fields stand on one line where there is room, one under the other on a phone.
              <Group align="flex-start" wrap="nowrap" gap="xs">
                <Group align="flex-start" gap="xs" style={{ flex: 1 }} miw={0}>
                  <TextInput
                    label="Path"
                    placeholder="Every path"
                    description="A path or pattern such as /assets/*; empty: every path"
                    inputWrapperOrder={['label', 'input', 'description', 'error']}
                    style={{ flex: '2 1 180px' }}
                    {...form.getInputProps(`headers.${index}.path`)}
                  />
                  <TextInput
                    label="Name"
                    placeholder="Cache-Control"
                    withAsterisk
                    style={{ flex: '2 1 160px' }}
                    {...form.getInputProps(`headers.${index}.name`)}
                  />
                  <TextInput
                    label="Value"
                    placeholder="public, max-age=3600"
                    style={{ flex: '3 1 200px' }}
                    {...form.getInputProps(`headers.${index}.value`)}
                  />
                </Group>
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
