import { Button, Group, Loader, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { IconSend } from '@tabler/icons-react';
import { infiniteQueryOptions, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { DEFAULT_PAGE_SIZE } from '@wharf/contract';
import { useEffect, useState } from 'react';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import listClasses from '../../components/ListRow.module.css';
import { PageFooter } from '../../components/LoadMore.tsx';
import { call, keyOf } from '../../lib/api.ts';
import { notifyFailure, notifySuccess } from '../../lib/notify.ts';
import { nextPage } from '../../lib/paging.ts';
import { DeliveryRow } from './DeliveryRow.tsx';
import { type HookScreens, hookApi } from './hookApi.ts';

/** How often and how long the list is asked again after a delivery was queued, until it shows. */
const POLL_EVERY_MS = 2_000;
const POLL_FOR_MS = 20_000;

function deliveriesQuery({ context, ownerId, hookId }: Omit<HookScreens, 'base'> & { hookId: string }) {
  const { routes, one } = hookApi(context, ownerId);
  const params = one(hookId);
  return infiniteQueryOptions({
    queryKey: keyOf(routes.deliveries, { params, query: { size: DEFAULT_PAGE_SIZE } }),
    queryFn: ({ pageParam }) =>
      call(routes.deliveries, { params, query: { page: pageParam, size: DEFAULT_PAGE_SIZE } }),
    initialPageParam: 0,
    getNextPageParam: nextPage,
  });
}

/**
 * Deliveries are sent in the background: the server answers Redeliver and Send test before the
 * attempt. The list is asked again every 2 s until it holds more than when the call was made, for
 * 20 s at most.
 */
function useAwaitedDelivery(total: number) {
  const [awaiting, setAwaiting] = useState<{ count: number; until: number } | null>(null);
  useEffect(() => {
    if (!awaiting) return;
    if (total > awaiting.count) return setAwaiting(null);
    const timer = setTimeout(() => setAwaiting(null), Math.max(0, awaiting.until - Date.now()));
    return () => clearTimeout(timer);
  }, [awaiting, total]);
  return {
    waiting: awaiting !== null,
    refetchInterval: awaiting ? POLL_EVERY_MS : (false as const),
    expect: () => setAwaiting({ count: total, until: Date.now() + POLL_FOR_MS }),
  };
}

/** The Deliveries tab of a hook: each attempt, newest first, a page at a time, with Redeliver and Send test. */
export function HookDeliveries({ context, ownerId, hookId }: Omit<HookScreens, 'base'> & { hookId: string }) {
  const { routes, one } = hookApi(context, ownerId);
  const client = useQueryClient();
  const [total, setTotal] = useState(0);
  const awaited = useAwaitedDelivery(total);
  const deliveries = useInfiniteQuery({
    ...deliveriesQuery({ context, ownerId, hookId }),
    refetchInterval: awaited.refetchInterval,
  });
  const count = deliveries.data?.pages[0]?.count ?? 0;
  useEffect(() => setTotal(count), [count]);
  useEffect(() => {
    if (deliveries.error) notifyFailure('list hook deliveries', deliveries.error);
  }, [deliveries.error]);

  const queued = async (message: string) => {
    notifySuccess(message);
    awaited.expect();
    await client.invalidateQueries({ queryKey: [routes.deliveries.path] });
  };
  const test = useMutation({
    mutationFn: () => call(routes.test, { params: one(hookId) }),
    onSuccess: () => queued('Test event queued'),
    onError: (error) => notifyFailure('send test', error),
  });
  const redeliver = useMutation({
    mutationFn: (deliveryId: string) => call(routes.redeliver, { params: { ...one(hookId), deliveryId } }),
    onSuccess: () => queued('Delivery queued'),
    onError: (error) => notifyFailure('redeliver', error),
  });

  const items = deliveries.data?.pages.flatMap((page) => page.items) ?? [];
  const sendTest = (
    <Button
      variant={deliveries.isSuccess && items.length === 0 ? 'filled' : 'default'}
      leftSection={<IconSend size={16} />}
      onClick={() => test.mutate()}
      loading={test.isPending}
    >
      Send test
    </Button>
  );

  if (deliveries.error) return <ErrorPanel title="Could not list hook deliveries" query={deliveries} />;
  if (!deliveries.data) return <Skeleton h={160} />;
  if (items.length === 0)
    return (
      <Stack>
        <EmptyState
          icon={<IconSend size={26} stroke={1.5} />}
          title="No deliveries yet"
          description="Each call to the hook and its answer show here when one of its events happens. Use Send test to send it a ping event now."
          action={sendTest}
        />
        {awaited.waiting && <Waiting />}
      </Stack>
    );
  return (
    <Stack>
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Text size="sm" c="dimmed">
          Each attempt to call the hook, newest first. Open one to see what was sent and answered.
        </Text>
        {sendTest}
      </Group>
      {awaited.waiting && <Waiting />}
      <Paper withBorder className={listClasses.list} aria-busy={deliveries.isFetching} aria-label="Deliveries">
        {items.map((delivery) => (
          <DeliveryRow
            key={delivery._id}
            delivery={delivery}
            onRedeliver={() => redeliver.mutate(delivery._id)}
            redelivering={redeliver.isPending && redeliver.variables === delivery._id}
          />
        ))}
      </Paper>
      <PageFooter list={deliveries} shown={items.length} total={count} noun="delivery" plural="deliveries" />
    </Stack>
  );
}

function Waiting() {
  return (
    <Group gap="xs" role="status">
      <Loader size={14} />
      <Text size="sm" c="dimmed">
        Waiting for the attempt…
      </Text>
    </Group>
  );
}
