import { Button, Chip, Group, Input, Stack, Text } from '@mantine/core';
import { countOf } from '../../lib/plural.ts';
import { describeEvent, eventEntities } from './eventLabels.ts';

/** The events of the list, by what they are about, in the picker's order; empty groups left out. */
export function groupEvents(events: string[]) {
  const described = events.map((event) => ({ event, ...describeEvent(event) }));
  return [...eventEntities, 'Other' as const]
    .map((entity) => ({ entity, events: described.filter((event) => event.entity === entity) }))
    .filter((group) => group.events.length > 0);
}

/**
 * spec.md §5 'events are multi-select toggles': one chip per event the context's hooks can hear,
 * named for people and grouped by what it is about; the values stay the API's event names.
 */
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
      withAsterisk
      description={`${value.length} of ${countOf(events.length, 'event')} chosen: the hook is called when one of them happens`}
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
          {groupEvents(events).map((group) => (
            <Stack key={group.entity} gap={6}>
              <Text size="xs" fw={700} c="dimmed" tt="uppercase">
                {group.entity} · {group.events.filter(({ event }) => chosen.has(event)).length}/{group.events.length}
              </Text>
              <Group gap={6}>
                {group.events.map(({ event, label }) => (
                  <Chip key={event} value={event} size="xs" variant="light" title={event}>
                    {label}
                  </Chip>
                ))}
              </Group>
            </Stack>
          ))}
        </Chip.Group>
      </Stack>
    </Input.Wrapper>
  );
}
