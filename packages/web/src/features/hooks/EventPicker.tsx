import { Button, Chip, Group, Input, Stack, Text } from '@mantine/core';

const groups: [string, string][] = [
  ['org_', 'Organization'],
  ['team_', 'Team'],
  ['site_', 'Site'],
];

/** spec.md §5 'events are multi-select toggles': one chip per event the context's hooks can hear, by area. */
export function EventPicker({
  events,
  value,
  onChange,
  error,
}: {
  events: string[];
  value: string[];
  onChange: (value: string[]) => void;
  error?: string;
}) {
  const chosen = new Set(value);
  return (
    <Input.Wrapper
      label="Events"
      description={`${value.length} of ${events.length} chosen: the hook is called when one of them happens`}
      error={error}
    >
      <Stack gap="sm" mt="xs">
        <Group gap="xs">
          <Button size="compact-xs" variant="light" onClick={() => onChange([...events])}>
            Select all
          </Button>
          <Button size="compact-xs" variant="default" onClick={() => onChange([])} disabled={value.length === 0}>
            Clear
          </Button>
        </Group>
        <Chip.Group multiple value={value} onChange={onChange}>
          {groups.map(([prefix, label]) => {
            const inGroup = events.filter((event) => event.startsWith(prefix));
            if (inGroup.length === 0) return null;
            return (
              <Stack key={prefix} gap={6}>
                <Text size="xs" fw={700} c="dimmed" tt="uppercase">
                  {label} · {inGroup.filter((event) => chosen.has(event)).length}/{inGroup.length}
                </Text>
                <Group gap={6}>
                  {inGroup.map((event) => (
                    <Chip key={event} value={event} size="xs" variant="light">
                      {event}
                    </Chip>
                  ))}
                </Group>
              </Stack>
            );
          })}
        </Chip.Group>
      </Stack>
    </Input.Wrapper>
  );
}
