import { Badge, Code, Group, Pagination, Paper, Skeleton, Stack, Table, Text } from '@mantine/core';
import { IconSend } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { DEFAULT_PAGE_SIZE, type HookDelivery } from '@wharf/contract';
import { useEffect, useState } from 'react';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { apiQuery } from '../../lib/api.ts';
import { notifyFailure } from '../../lib/notify.ts';
import { countOf } from '../../lib/plural.ts';
import { exactTime, relativeTime } from '../../lib/time.ts';
import { type HookScreens, hookApi } from './hookApi.ts';

function DeliveryRow({ delivery }: { delivery: HookDelivery }) {
  return (
    <Table.Tr>
      <Table.Td>
        <Badge color={delivery.success ? 'teal' : 'red'} variant="light">
          {delivery.success ? 'success' : 'failed'}
        </Badge>
      </Table.Td>
      <Table.Td title={exactTime(delivery.date)}>{relativeTime(delivery.date)}</Table.Td>
      <Table.Td>
        <Code>{delivery.type}</Code>
      </Table.Td>
      <Table.Td maw={420}>
        <Code block style={{ maxHeight: 120, overflow: 'auto', whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
          {JSON.stringify(delivery.data, null, 2)}
        </Code>
      </Table.Td>
    </Table.Tr>
  );
}

/** The Deliveries tab of a hook: each call made, newest first, a page at a time. */
export function HookDeliveries({ context, ownerId, hookId }: Omit<HookScreens, 'base'> & { hookId: string }) {
  const { routes, one } = hookApi(context, ownerId);
  const [page, setPage] = useState(0);
  const deliveries = useQuery({
    ...apiQuery(routes.deliveries, { params: one(hookId), query: { page, size: DEFAULT_PAGE_SIZE } }),
    placeholderData: keepPreviousData,
  });
  useEffect(() => {
    if (deliveries.error) notifyFailure('list hook deliveries', deliveries.error);
  }, [deliveries.error]);

  if (deliveries.error) return <ErrorPanel title="Could not list hook deliveries" query={deliveries} />;
  if (!deliveries.data) return <Skeleton h={160} />;
  const { items, count } = deliveries.data;
  if (count === 0)
    return (
      <EmptyState
        icon={<IconSend size={26} stroke={1.5} />}
        title="No deliveries"
        description="Each time one of the hook's events happens, the call and its outcome show here."
      />
    );
  const pages = Math.ceil(count / DEFAULT_PAGE_SIZE);
  return (
    <Stack>
      <Paper withBorder>
        <Table.ScrollContainer minWidth={560}>
          <Table verticalSpacing="sm" horizontalSpacing="md">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Result</Table.Th>
                <Table.Th>Date</Table.Th>
                <Table.Th>Type</Table.Th>
                <Table.Th>Data</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((delivery) => (
                <DeliveryRow key={delivery._id} delivery={delivery} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {countOf(count, 'delivery', 'deliveries')}
        </Text>
        {pages > 1 && <Pagination total={pages} value={page + 1} onChange={(value) => setPage(value - 1)} />}
      </Group>
    </Stack>
  );
}
