import { Group, Select, Textarea, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { REDIRECT_STATUSES, type RedirectValues } from './redirectValues.ts';

/** The settings of one rule that belong to its type: a file's content, a proxy's URL, a redirect's target. */
export function RedirectRuleFields({
  form,
  index,
  type,
  canManage,
}: {
  form: UseFormReturnType<{ redirects: RedirectValues[] }>;
  index: number;
  type: RedirectValues['type'];
  canManage: boolean;
}) {
  const field = (name: keyof RedirectValues) => form.getInputProps(`redirects.${index}.${name}`);
  if (type === 'file')
    return (
      <Textarea
        label="Content"
        placeholder="User-agent: *"
        autosize
        minRows={2}
        maxRows={10}
        readOnly={!canManage}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } }}
        {...field('content')}
      />
    );
  if (type === 'redirect')
    return (
      <Group grow align="flex-start" wrap="wrap">
        <TextInput
          label="Target"
          placeholder="/new-path or https://example.com"
          description="A path of the site, or an address elsewhere"
          withAsterisk
          readOnly={!canManage}
          miw={220}
          {...field('target')}
        />
        <Select
          label="Status"
          description="The answer that sends the browser there"
          data={REDIRECT_STATUSES}
          allowDeselect={false}
          withAsterisk
          readOnly={!canManage}
          miw={220}
          {...field('status')}
        />
      </Group>
    );
  return (
    <Group grow align="flex-start" wrap="wrap">
      <TextInput
        label="URL"
        placeholder="https://api.example.com"
        withAsterisk
        readOnly={!canManage}
        miw={220}
        {...field('url')}
      />
      <TextInput
        label="Strip path prefix"
        placeholder="/api"
        description="Optional: removed from the path before proxying"
        readOnly={!canManage}
        miw={220}
        {...field('stripPathPrefix')}
      />
    </Group>
  );
}
