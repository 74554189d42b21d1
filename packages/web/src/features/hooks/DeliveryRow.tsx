import {
  ActionIcon,
  Badge,
  Button,
  Code,
  Collapse,
  Group,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { IconChevronRight, IconRepeat } from '@tabler/icons-react';
import type { HookDelivery } from '@wharf/contract';
import { useId, useState } from 'react';
import { RowDetail } from '../../components/ListRow.tsx';
import { exactTime, formatDuration, relativeTime } from '../../lib/time.ts';
import { usePhone } from '../../lib/usePhone.ts';
import classes from './DeliveryRow.module.css';
import { type DeliveryView, deliveryStatuses, deliveryView, type ExchangePart } from './deliveryData.ts';

function Part({ title, part, missing }: { title: string; part: ExchangePart | null; missing: string }) {
  return (
    <Stack gap={6} miw={0}>
      <Text size="sm" fw={600}>
        {title}
      </Text>
      {!part && (
        <Text size="sm" c="dimmed">
          {missing}
        </Text>
      )}
      {part?.facts.map(([label, value]) => (
        <Text key={label || value} size="sm" className={classes.wrap}>
          {label && (
            <Text span c="dimmed" size="sm">
              {label}:{' '}
            </Text>
          )}
          {value}
        </Text>
      ))}
      {part && part.headers.length > 0 && (
        <Table.ScrollContainer minWidth={0} type="native">
          <Table withTableBorder fz="xs" verticalSpacing={4} horizontalSpacing="xs" aria-label={`${title} headers`}>
            <Table.Tbody>
              {part.headers.map(([name, value], index) => (
                // A header may repeat (set-cookie): the index keeps each row apart.
                // biome-ignore lint/suspicious/noArrayIndexKey: headers are shown in the order they came
                <Table.Tr key={`${name}-${index}`}>
                  <Table.Td className={classes.headerName}>{name}</Table.Td>
                  <Table.Td className={classes.wrap}>{value}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {part?.body && (
        <Code block className={classes.body} aria-label={`${title} body`}>
          {part.body}
        </Code>
      )}
    </Stack>
  );
}

/** What a delivery sent and got back, shown when its row is open. */
export function DeliveryDetails({ view }: { view: DeliveryView }) {
  return (
    <Stack gap="sm" className={classes.details}>
      {view.error && (
        <Text size="sm" c="red" className={classes.wrap}>
          {view.error}
        </Text>
      )}
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Part title="Request" part={view.request} missing="Nothing was sent." />
        <Part title="Response" part={view.response} missing="No answer." />
      </SimpleGrid>
    </Stack>
  );
}

/**
 * One attempt of a hook's delivery: its status, event, attempt, time, duration and answer; it opens
 * in place on what was sent and answered. `onRedeliver` sends its event again as a new delivery.
 */
export function DeliveryRow({
  delivery,
  onRedeliver,
  redelivering = false,
}: {
  delivery: HookDelivery;
  onRedeliver?: () => void;
  redelivering?: boolean;
}) {
  const [opened, setOpened] = useState(false);
  const phone = usePhone();
  const panelId = useId();
  const view = deliveryView(delivery);
  const status = deliveryStatuses[view.status];
  const details = [
    relativeTime(delivery.date),
    view.attempt !== null ? `Attempt ${view.attempt}` : null,
    view.durationMs !== null ? formatDuration(view.durationMs) : null,
  ].filter(Boolean);
  return (
    <div className={classes.item}>
      <Group wrap="nowrap" gap="xs" className={classes.head}>
        <UnstyledButton
          className={classes.toggle}
          onClick={() => setOpened((open) => !open)}
          aria-expanded={opened}
          aria-controls={panelId}
          aria-label={`${status.label}: ${view.eventLabel}${view.attempt !== null ? `, attempt ${view.attempt}` : ''}, ${relativeTime(delivery.date)}`}
        >
          <Group wrap="nowrap" gap="sm" miw={0}>
            <IconChevronRight
              size={16}
              stroke={1.5}
              className={opened ? classes.chevronOpen : classes.chevron}
              aria-hidden
            />
            <Stack gap={2} miw={0}>
              <Group gap={6} wrap="wrap" miw={0}>
                <Badge color={status.color} variant="light" className={classes.badge}>
                  {status.label}
                </Badge>
                <Text fw={600} size="sm" title={view.event} className={classes.wrap}>
                  {view.eventLabel}
                </Text>
              </Group>
              <RowDetail title={exactTime(delivery.date)} truncate={false}>
                {details.join(' · ')}
                {view.outcome && (
                  <>
                    {' · '}
                    <Text
                      span
                      size="xs"
                      c={view.status === 'delivered' ? 'dimmed' : 'red'}
                      className={view.outcome.length < 24 ? classes.nowrap : classes.wrap}
                    >
                      {view.outcome}
                    </Text>
                  </>
                )}
              </RowDetail>
            </Stack>
          </Group>
        </UnstyledButton>
        {onRedeliver && phone && (
          <Tooltip label="Redeliver">
            <ActionIcon
              variant="default"
              size="lg"
              onClick={onRedeliver}
              loading={redelivering}
              aria-label={`Redeliver ${view.eventLabel}`}
              className={classes.action}
            >
              <IconRepeat size={16} />
            </ActionIcon>
          </Tooltip>
        )}
        {onRedeliver && !phone && (
          <Button
            size="xs"
            variant="default"
            leftSection={<IconRepeat size={14} />}
            onClick={onRedeliver}
            loading={redelivering}
            aria-label={`Redeliver ${view.eventLabel}`}
            className={classes.action}
          >
            Redeliver
          </Button>
        )}
      </Group>
      <Collapse in={opened} id={panelId}>
        {opened && <DeliveryDetails view={view} />}
      </Collapse>
    </div>
  );
}
