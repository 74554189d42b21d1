// The home's first styles (app/mantineStyles.css, the shell's) lack these: they come with the list.
import '@mantine/core/styles/Badge.layer.css';
import { Badge, Button, Group, Stack, TextInput, Title } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { api, DEFAULT_PAGE_SIZE, messages, type Site } from '@wharf/contract';
import { useState } from 'react';
import { EntityAvatar } from '../../components/EntityAvatar.tsx';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { LinkRow, RowDetail, RowList } from '../../components/ListRow.tsx';
import { LoadMore } from '../../components/LoadMore.tsx';
import { call, keyOf } from '../../lib/api.ts';
import { nextPage } from '../../lib/paging.ts';
import { exactTime, relativeTime } from '../../lib/time.ts';
import { useSearchTerm } from '../../lib/useSearchTerm.ts';

type Sort = 'lastDeploy' | 'name';

const SORTS: { value: Sort; label: string }[] = [
  { value: 'lastDeploy', label: 'Last deploy' },
  { value: 'name', label: 'Name' },
];

/**
 * Two pressed-or-not buttons: a segmented control's sliding indicator measured its place again at
 * every layout of the loading page, the home's costliest script (90 ms of a 400 ms load).
 */
function SortButtons({ sort, onChange }: { sort: Sort; onChange: (sort: Sort) => void }) {
  return (
    <Button.Group {...{ role: 'group', 'aria-label': 'Sort sites' }}>
      {SORTS.map(({ value, label }) => (
        <Button
          key={value}
          size="compact-sm"
          variant={sort === value ? 'light' : 'default'}
          aria-pressed={sort === value}
          onClick={() => onChange(value)}
        >
          {label}
        </Button>
      ))}
    </Button.Group>
  );
}

/** How the site's last deploy went: live, failed (why, on hover), or nothing deployed yet. */
function DeployState({ site }: { site: Site }) {
  if (site.lastDeploy?.state === 'failed')
    return (
      <Badge size="sm" color="red" variant="light" title={site.lastDeploy.message ?? undefined}>
        failed
      </Badge>
    );
  if (site.live)
    return (
      <Badge size="sm" color="teal" variant="light">
        live
      </Badge>
    );
  return (
    <Badge size="sm" color="gray" variant="light">
      no release
    </Badge>
  );
}

/** `v2 · 3 hours ago · 3f2c9a1 by Ada`: what the main branch serves and where it came from. */
function liveText({ live }: Site) {
  if (!live) return 'No release on the main branch yet';
  const commit = live.commit ? ` · ${live.commit.slice(0, 7)}` : '';
  const author = live.author ? ` by ${live.author}` : '';
  return `${live.name} · ${relativeTime(live.date)}${commit}${author}`;
}

/** The organization's sites with what each serves in production, the last deployed first. */
export function LiveSites({ orgId }: { orgId: string }) {
  const [input, setInput] = useState('');
  const [sort, setSort] = useState<Sort>('lastDeploy');
  const { term, tooShort } = useSearchTerm(input);
  const params = { orgId };
  const query = { search: term || undefined, sort, size: DEFAULT_PAGE_SIZE };
  const sites = useInfiniteQuery({
    queryKey: keyOf(api.listOrgSites, { params, query }),
    queryFn: ({ pageParam }) => call(api.listOrgSites, { params, query: { ...query, page: pageParam } }),
    initialPageParam: 0,
    getNextPageParam: nextPage,
    placeholderData: keepPreviousData,
  });
  const items = sites.data?.pages.flatMap((page) => page.items) ?? [];
  // Shown once the first page is known, in one piece: an organization without sites shows nothing.
  if (sites.isPending || (sites.isSuccess && items.length === 0 && !term)) return null;
  return (
    <Stack component="section" aria-labelledby="live-sites" mt="xl" gap="sm">
      <Group justify="space-between" align="flex-end">
        <Title order={2} size="h4" id="live-sites">
          Sites
        </Title>
        <SortButtons sort={sort} onChange={setSort} />
      </Group>
      <TextInput
        aria-label="Filter sites"
        placeholder="Filter by name"
        leftSection={<IconSearch size={16} />}
        value={input}
        onChange={(event) => setInput(event.currentTarget.value)}
        description={tooShort ? messages.searchMinLength : undefined}
        maw={420}
      />
      {sites.error && <ErrorPanel title="Could not list sites" query={sites} />}
      {items.length > 0 && (
        <RowList aria-busy={sites.isFetching}>
          {items.map((site) => (
            <LinkRow
              key={site._id}
              to={`/sites/${site._id}`}
              leading={<EntityAvatar name={site.name} color={site.color} logo={site.logo} size={38} />}
              title={site.name}
              badges={<DeployState site={site} />}
              details={
                <RowDetail title={site.live ? exactTime(site.live.date) : undefined}>{liveText(site)}</RowDetail>
              }
            />
          ))}
        </RowList>
      )}
      {sites.hasNextPage && (
        <Group justify="center">
          <LoadMore list={sites} />
        </Group>
      )}
    </Stack>
  );
}
