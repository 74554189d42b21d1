import { ActionIcon, Avatar, Button, Group, Skeleton, Stack, Text, ThemeIcon, Tooltip } from '@mantine/core';
import { IconChevronRight, IconHistory, IconRobot } from '@tabler/icons-react';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { type AuditEntry, api, DEFAULT_PAGE_SIZE, type EventName } from '@wharf/contract';
import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import classes from '../../components/ListRow.module.css';
import { RowList } from '../../components/ListRow.tsx';
import { PageFooter } from '../../components/LoadMore.tsx';
import { call, keyOf } from '../../lib/api.ts';
import { useCurrentOrg } from '../../lib/currentOrg.tsx';
import { notifyFailure } from '../../lib/notify.ts';
import { nextPage } from '../../lib/paging.ts';
import { exactTime, relativeTime } from '../../lib/time.ts';
import { usePhone } from '../../lib/usePhone.ts';
import { describeEvent } from '../hooks/eventLabels.ts';
import { AuditFilters, type AuditFilterValues } from './AuditFilters.tsx';

function ActorAvatar({ actor }: { actor: AuditEntry['actor'] }) {
  if (!actor)
    return (
      <ThemeIcon variant="light" color="gray" radius="xl" size={38} aria-hidden>
        <IconRobot size={20} />
      </ThemeIcon>
    );
  return <Avatar name={actor.name} color="initials" radius="xl" aria-hidden />;
}

/** The way to what an entry is about: a word on a wide screen, a chevron on a phone. */
function OpenLink({ to, label }: { to: string; label: string }) {
  const phone = usePhone();
  if (phone)
    return (
      <ActionIcon component={Link} to={to} variant="subtle" aria-label={label}>
        <IconChevronRight size={18} />
      </ActionIcon>
    );
  return (
    <Button
      component={Link}
      to={to}
      variant="subtle"
      size="compact-sm"
      rightSection={<IconChevronRight size={14} />}
      aria-label={label}
      style={{ flex: 'none' }}
    >
      Open
    </Button>
  );
}

/** One entry: who, the sentence, when (exact time on hover), and a way to what it is about. */
export function AuditRow({ entry }: { entry: AuditEntry }) {
  return (
    <Group
      component="article"
      className={classes.row}
      wrap="nowrap"
      justify="space-between"
      align="center"
      aria-label={entry.summary}
    >
      <Group wrap="nowrap" align="flex-start" miw={0}>
        <ActorAvatar actor={entry.actor} />
        <Stack gap={2} miw={0}>
          <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
            {entry.summary}
          </Text>
          <Text size="xs" c="dimmed">
            <Tooltip label={exactTime(entry.createdAt)} withArrow>
              <time dateTime={entry.createdAt}>{relativeTime(entry.createdAt)}</time>
            </Tooltip>
            {' · '}
            {entry.actor?.name ?? 'Wharf'}
            {' · '}
            {describeEvent(entry.event).label}
          </Text>
        </Stack>
      </Group>
      {entry.link && <OpenLink to={entry.link} label={`Open: ${entry.summary}`} />}
    </Group>
  );
}

const FILTER_KEYS = { teamId: 'team', siteId: 'site', event: 'event' } as const;

/** The filters live in the address, so that a filtered log can be shared and survives a reload. */
function useAuditFilters() {
  const [params, setParams] = useSearchParams();
  const value: AuditFilterValues = {
    teamId: params.get(FILTER_KEYS.teamId),
    siteId: params.get(FILTER_KEYS.siteId),
    event: params.get(FILTER_KEYS.event),
  };
  const set = (next: AuditFilterValues) => {
    const entries = Object.entries(FILTER_KEYS).flatMap(([key, name]) => {
      const chosen = next[key as keyof AuditFilterValues];
      return chosen ? [[name, chosen]] : [];
    });
    setParams(new URLSearchParams(entries), { replace: true });
  };
  return [value, set] as const;
}

/** /org/audit: what happened in the organization, newest first, a page at a time. */
export function AuditLogTab() {
  const { org } = useCurrentOrg();
  const [filters, setFilters] = useAuditFilters();
  const params = { orgId: org._id };
  const query = {
    teamId: filters.teamId ?? undefined,
    siteId: filters.siteId ?? undefined,
    // An unknown name from the address is the server's to refuse.
    event: (filters.event ?? undefined) as EventName | undefined,
  };
  const log = useInfiniteQuery({
    queryKey: keyOf(api.listAuditLog, { params, query: { ...query, size: DEFAULT_PAGE_SIZE } }),
    queryFn: ({ pageParam }) =>
      call(api.listAuditLog, {
        params,
        query: { ...query, page: pageParam, size: DEFAULT_PAGE_SIZE },
      }),
    initialPageParam: 0,
    getNextPageParam: nextPage,
    placeholderData: keepPreviousData,
  });
  useEffect(() => {
    if (log.error) notifyFailure('list audit log', log.error);
  }, [log.error]);

  const items = log.data?.pages.flatMap((page) => page.items) ?? [];
  const total = log.data?.pages[0]?.count ?? 0;
  const filtered = Boolean(filters.teamId || filters.siteId || filters.event);
  return (
    <Stack>
      <AuditFilters value={filters} onChange={setFilters} />
      {log.isPending && <Skeleton h={160} />}
      {log.error && <ErrorPanel title="Could not list audit log" query={log} />}
      {log.isSuccess && items.length === 0 && (
        <EmptyState
          icon={<IconHistory size={26} stroke={1.5} />}
          title="No events"
          description={
            filtered
              ? 'Nothing that happened in the organization matches these filters.'
              : 'Changes to the organization, its teams and its sites show here as they happen.'
          }
        />
      )}
      {items.length > 0 && (
        <RowList aria-busy={log.isFetching}>
          {items.map((entry) => (
            <AuditRow key={entry._id} entry={entry} />
          ))}
        </RowList>
      )}
      {total > 0 && <PageFooter list={log} shown={items.length} total={total} noun="event" />}
    </Stack>
  );
}
