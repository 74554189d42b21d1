import { ActionIcon, Button, Card, Group, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { type Header, siteHeadersBody } from '@wharf/contract';
import type { ReactNode } from 'react';
import { contractResolver } from '../../lib/form.ts';

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
          {form.values.headers.length === 0 && (
            <Text size="sm" c="dimmed" fs="italic">
              No headers
            </Text>
          )}
          {form.values.headers.map((_, index) => (
            <Group
              // biome-ignore lint/suspicious/noArrayIndexKey: rows are identified by position only
              key={index}
              align="flex-start"
              wrap="nowrap"
              gap="xs"
              aria-label={`Header ${index + 1}`}
              role="group"
            >
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
              <Tooltip label="Remove" withArrow>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  mt={26}
                  size="lg"
                  aria-label={`Remove header ${index + 1}`}
                  onClick={() => form.removeListItem('headers', index)}
                >
                  <IconTrash size={16} />
                </ActionIcon>
              </Tooltip>
            </Group>
          ))}
          <Group justify="space-between">
            <Button
              variant="light"
              leftSection={<IconPlus size={16} />}
              onClick={() => form.insertListItem('headers', { name: '', value: '' })}
            >
              Add header
            </Button>
            <Group gap="sm">
              {extraActions}
              <Button variant="default" onClick={() => form.reset()} disabled={!form.isDirty()}>
                Discard
              </Button>
              <Button type="submit" loading={saving} disabled={!form.isDirty()}>
                Save
              </Button>
            </Group>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
