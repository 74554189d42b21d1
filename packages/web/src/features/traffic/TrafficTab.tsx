import { Group, Paper, SegmentedControl, Select, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, type TrafficSummary } from '@wharf/contract';
import { useSearchParams } from 'react-router';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { OnDemand } from '../../components/OnDemand.tsx';
import { apiQuery } from '../../lib/api.ts';
import { formatBytes } from '../../lib/bytes.ts';
import { lazyChunk } from '../../lib/chunks.ts';
import { branchLabel, TrafficLists } from './TrafficLists.tsx';
import { dailySeries, trafficSeries } from './trafficSeries.ts';

const TrafficChart = lazyChunk(() => import('./TrafficChart.tsx').then((m) => m.TrafficChart));

/** The ranges offered: the last day by hour, longer ones by day. */
const RANGES = [
  { value: '24h', label: '24 hours', days: 1 },
  { value: '7d', label: '7 days', days: 7 },
  { value: '30d', label: '30 days', days: 30 },
  { value: '90d', label: '90 days', days: 90 },
] as const;
const BY_HOUR = '24h';
const WHOLE_SITE = '';

const hourLabel = (hour: string) => new Date(hour).toLocaleString('en', { hour: 'numeric', hour12: false });
const dayLabel = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString('en', { month: 'short', day: 'numeric', timeZone: 'UTC' });

function Figure({ value, label, color }: { value: string; label: string; color?: string }) {
  return (
    <Stack gap={0}>
      <Text fw={700} size="lg" c={color}>
        {value}
      </Text>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
    </Stack>
  );
}

/** The range's totals: requests, bytes and each status class. */
function Totals({ totals }: { totals: TrafficSummary['totals'] }) {
  const count = (value: number) => value.toLocaleString('en');
  return (
    <SimpleGrid cols={{ base: 3, sm: 6 }} spacing="sm" aria-label="Totals">
      <Figure value={count(totals.requests)} label="requests" />
      <Figure value={formatBytes(totals.bytes)} label="served" />
      <Figure value={count(totals.status['2xx'])} label="2xx answered" />
      <Figure value={count(totals.status['3xx'])} label="3xx redirected" />
      <Figure
        value={count(totals.status['4xx'])}
        label="4xx refused"
        color={totals.status['4xx'] ? 'orange' : undefined}
      />
      <Figure value={count(totals.status['5xx'])} label="5xx failed" color={totals.status['5xx'] ? 'red' : undefined} />
    </SimpleGrid>
  );
}

/** The requests of the range, by hour for the last day, else by day. */
function RangeChart({ siteId, days, branch }: { siteId: string; days: number; branch?: string }) {
  const byHour = days === 1;
  const hours = useQuery({
    ...apiQuery(api.getSiteTraffic, { params: { siteId }, query: { hours: 24, branch } }),
    enabled: byHour,
    refetchInterval: 60_000,
  });
  const summary = useQuery(summaryQuery(siteId, days, branch));
  const data = byHour
    ? trafficSeries(hours.data ?? [], 24).map((point) => ({ ...point, label: hourLabel(point.hour) }))
    : dailySeries(summary.data?.days ?? [], days).map((point) => ({ ...point, label: dayLabel(point.day) }));
  if ((byHour ? hours : summary).isPending) return <Skeleton h={180} />;
  return (
    <OnDemand fallback={<Skeleton h={180} />}>
      <TrafficChart data={data} height={180} axes />
    </OnDemand>
  );
}

const summaryQuery = (siteId: string, days: number, branch?: string) => ({
  ...apiQuery(api.getSiteTrafficSummary, { params: { siteId }, query: { days, branch } }),
  refetchInterval: 60_000,
  placeholderData: keepPreviousData,
});

/**
 * /sites/{siteId}/traffic: what the site's addresses (or one branch's) served over a range, from the
 * edge's own counts: no cookie, no script, nothing about a visitor. The range and branch are in the
 * address, so a view can be shared.
 */
export function TrafficTab({ siteId }: { siteId: string }) {
  const [search, setSearch] = useSearchParams();
  const range = RANGES.find((choice) => choice.value === search.get('range')) ?? RANGES[1];
  const branch = search.get('branch') || undefined;
  const summary = useQuery(summaryQuery(siteId, range.days, branch));
  const choose = (key: string, value: string) =>
    setSearch(
      (previous) => {
        const next = new URLSearchParams(previous);
        if (value) next.set(key, value);
        else next.delete(key);
        return next;
      },
      { replace: true },
    );
  const branches = [
    { value: WHOLE_SITE, label: 'All branches' },
    ...(summary.data?.branches ?? []).map((share) => ({ value: share.branch, label: branchLabel(share) })),
  ];
  if (branch && !branches.some((choice) => choice.value === branch))
    branches.push({ value: branch, label: 'This branch' });
  return (
    <Stack>
      <Group justify="space-between" align="flex-end" gap="sm">
        <SegmentedControl
          aria-label="Range"
          data={RANGES.map(({ value, label }) => ({ value, label }))}
          value={range.value}
          onChange={(value) => choose('range', value === RANGES[1].value ? '' : value)}
        />
        <Select
          aria-label="Branch"
          data={branches}
          value={branch ?? WHOLE_SITE}
          onChange={(value) => choose('branch', value ?? WHOLE_SITE)}
          allowDeselect={false}
          w={{ base: '100%', xs: 220 }}
        />
      </Group>
      {summary.error && <ErrorPanel title="Could not load traffic" query={summary} />}
      {summary.isPending && <Skeleton h={320} />}
      {summary.data && (
        <>
          <Paper withBorder p="md" radius="md" component="section" aria-label="Requests over time">
            <Stack gap="md">
              <Totals totals={summary.data.totals} />
              <RangeChart siteId={siteId} days={range.days} branch={branch} />
              <Text size="xs" c="dimmed">
                {range.value === BY_HOUR ? 'Requests per hour' : 'Requests per day (UTC)'}, counted by Wharf as it
                answers: no cookie, no script, nothing about a visitor is kept. Traffic is kept for{' '}
                {summary.data.retentionDays} days.
              </Text>
            </Stack>
          </Paper>
          <TrafficLists
            summary={summary.data}
            wholeSite={branch === undefined}
            onPickBranch={(picked) => choose('branch', picked)}
          />
        </>
      )}
    </Stack>
  );
}
