// Mantine's core styles first: its extensions' styles build on them, in the same layer.
import '../../components/allMantineStyles.ts';
import '@mantine/spotlight/styles.layer.css';
import { Group, Loader, Stack, Text } from '@mantine/core';
import { Spotlight } from '@mantine/spotlight';
import { IconSearch } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, HOTKEY_SITE_SEARCH, messages, SEARCH_PAGE_SIZE } from '@wharf/contract';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { EntityAvatar } from '../../components/EntityAvatar.tsx';
import { apiQuery } from '../../lib/api.ts';
import { useCurrentOrg } from '../../lib/currentOrg.tsx';
import { notifyFailure } from '../../lib/notify.ts';
import { useSearchTerm } from '../../lib/useSearchTerm.ts';
import classes from './SiteSearch.module.css';

/** spec.md §2 'Site search': Ctrl or Cmd + K, page 0 of 10 sites matching the term. */
export function SiteSearch() {
  const { org } = useCurrentOrg();
  const navigate = useNavigate();
  const [opened, setOpened] = useState(false);
  const [query, setQuery] = useState('');
  const { term, tooShort } = useSearchTerm(query);
  const sites = useQuery({
    ...apiQuery(api.listOrgSites, {
      params: { orgId: org._id },
      query: { page: 0, size: SEARCH_PAGE_SIZE, search: term || undefined },
    }),
    enabled: opened,
    placeholderData: keepPreviousData,
  });

  useEffect(() => {
    if (sites.error) notifyFailure('search sites', sites.error);
  }, [sites.error]);

  const items = sites.data?.items ?? [];
  return (
    <Spotlight.Root
      query={query}
      onQueryChange={setQuery}
      shortcut={HOTKEY_SITE_SEARCH}
      onSpotlightOpen={() => setOpened(true)}
      onSpotlightClose={() => setOpened(false)}
      scrollable
      maxHeight={420}
    >
      <Spotlight.Search
        placeholder="Search sites"
        aria-label="Search sites"
        leftSection={<IconSearch size={18} stroke={1.5} />}
        rightSection={sites.isFetching ? <Loader size={14} /> : null}
      />
      <Spotlight.ActionsList aria-label="Sites">
        {tooShort && (
          <Text size="xs" c="dimmed" px="sm" py={6}>
            {messages.searchMinLength}
          </Text>
        )}
        {items.map((site) => (
          <Spotlight.Action key={site._id} onClick={() => navigate(`/sites/${site._id}`)}>
            <Group wrap="nowrap" w="100%">
              <EntityAvatar name={site.name} color={site.color} logo={site.logo} size={30} />
              <Stack gap={0} miw={0}>
                <Text size="sm" fw={500} truncate>
                  {site.name}
                </Text>
                <Text size="xs" className={classes.address} truncate>
                  {site.url}
                </Text>
              </Stack>
            </Group>
          </Spotlight.Action>
        ))}
        {sites.isSuccess && items.length === 0 && <Spotlight.Empty>No results</Spotlight.Empty>}
      </Spotlight.ActionsList>
    </Spotlight.Root>
  );
}
