import { Anchor, Card, Group, Skeleton, Stack, Text } from '@mantine/core';
import { IconChartAreaLine } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { api } from '@wharf/contract';
import { Link } from 'react-router';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { OnDemand } from '../../components/OnDemand.tsx';
import { apiQuery } from '../../lib/api.ts';
import { formatBytes } from '../../lib/bytes.ts';
import { lazyChunk } from '../../lib/chunks.ts';
import { trafficSeries } from './trafficSeries.ts';

const HOURS = 72;

// The charting library is most of a site page's code: it loads when there is traffic to draw.
const TrafficChart = lazyChunk(() => import('./TrafficChart.tsx').then((m) => m.TrafficChart));

const hourLabel = (hour: string) =>
  new Date(hour).toLocaleString('en', { weekday: 'short', hour: 'numeric', hour12: false });

/** A small chart of the requests a site answered per hour over the last three days, from the edge's counts. */
export function TrafficCard({ siteId }: { siteId: string }) {
  const traffic = useQuery({
    ...apiQuery(api.getSiteTraffic, { params: { siteId }, query: { hours: HOURS } }),
    refetchInterval: 60_000,
  });
  const series = trafficSeries(traffic.data ?? [], HOURS).map((point) => ({ ...point, label: hourLabel(point.hour) }));
  const requests = series.reduce((total, point) => total + point.requests, 0);
  const bytes = series.reduce((total, point) => total + point.bytes, 0);
  return (
    <Card padding="md" mb="lg" aria-label="Traffic">
      <Group justify="space-between" align="flex-start" mb="xs" gap="xs">
        <Stack gap={0}>
          <Text fw={600} size="sm">
            Traffic
          </Text>
          <Text size="xs" c="dimmed">
            Requests per hour, last 3 days ·{' '}
            <Anchor component={Link} to={`/sites/${siteId}/traffic`} size="xs">
              Paths, referrers and branches
            </Anchor>
          </Text>
        </Stack>
        {traffic.data && requests > 0 && (
          <Group gap="lg">
            <Stack gap={0} align="flex-end">
              <Text fw={700}>{requests.toLocaleString('en')}</Text>
              <Text size="xs" c="dimmed">
                requests
              </Text>
            </Stack>
            {bytes > 0 && (
              <Stack gap={0} align="flex-end">
                <Text fw={700}>{formatBytes(bytes)}</Text>
                <Text size="xs" c="dimmed">
                  served
                </Text>
              </Stack>
            )}
          </Group>
        )}
      </Group>
      {traffic.error && <ErrorPanel title="Could not load traffic" query={traffic} />}
      {traffic.isPending && <Skeleton h={96} />}
      {traffic.data && requests === 0 && (
        <Group h={96} justify="center" gap="xs" c="dimmed">
          <IconChartAreaLine size={20} stroke={1.5} aria-hidden />
          <Text size="sm" c="dimmed">
            No traffic yet: visits to the site's addresses show here within a minute.
          </Text>
        </Group>
      )}
      {traffic.data && requests > 0 && (
        <OnDemand fallback={<Skeleton h={96} />}>
          <TrafficChart data={series} />
        </OnDemand>
      )}
    </Card>
  );
}
