import { Group, Select } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, MAX_PAGE_SIZE, SEARCH_PAGE_SIZE, userEvents } from '@wharf/contract';
import { useEffect, useState } from 'react';
import { apiQuery } from '../../lib/api.ts';
import { useCurrentOrg } from '../../lib/currentOrg.tsx';
import { notifyFailure } from '../../lib/notify.ts';
import { useSearchTerm } from '../../lib/useSearchTerm.ts';
import { eventEntities, eventLabels } from '../hooks/eventLabels.ts';

export interface AuditFilterValues {
  teamId: string | null;
  siteId: string | null;
  event: string | null;
}

/**
 * The event picker's choices: every event by what it is about, in the hook picker's order. A
 * user's own events (API tokens) belong to no organization and never show in its log.
 */
export const eventChoices = eventEntities
  .map((entity) => ({
    group: entity,
    items: Object.entries(eventLabels)
      .filter(([name, label]) => label.entity === entity && !(userEvents as readonly string[]).includes(name))
      .map(([value, { label }]) => ({ value, label })),
  }))
  .filter((group) => group.items.length > 0);

function TeamPicker({ value, onChange }: { value: string | null; onChange: (teamId: string | null) => void }) {
  const { org } = useCurrentOrg();
  const teams = useQuery(apiQuery(api.listTeams, { params: { orgId: org._id }, query: { size: MAX_PAGE_SIZE } }));
  useEffect(() => {
    if (teams.error) notifyFailure('list teams', teams.error);
  }, [teams.error]);
  return (
    <Select
      label="Team"
      placeholder="All teams"
      data={(teams.data?.items ?? []).map((team) => ({ value: team._id, label: team.name }))}
      value={value}
      onChange={onChange}
      searchable
      clearable
      nothingFoundMessage="No teams"
      style={{ flex: '1 1 180px' }}
    />
  );
}

/** The sites of the organization, searched on the server as one types (spec.md §9: 3 characters or none). */
function SitePicker({ value, onChange }: { value: string | null; onChange: (siteId: string | null) => void }) {
  const { org } = useCurrentOrg();
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState<{ value: string; label: string } | null>(null);
  const typed = chosen && search === chosen.label ? '' : search;
  const { term } = useSearchTerm(typed);
  const sites = useQuery({
    ...apiQuery(api.listOrgSites, {
      params: { orgId: org._id },
      query: { page: 0, size: SEARCH_PAGE_SIZE, search: term || undefined },
    }),
    placeholderData: keepPreviousData,
  });
  useEffect(() => {
    if (sites.error) notifyFailure('search sites', sites.error);
  }, [sites.error]);
  const found = (sites.data?.items ?? []).map((site) => ({ value: site._id, label: site.name }));
  const missing = Boolean(value) && !chosen && sites.isSuccess && !found.some((site) => site.value === value);
  // A site chosen before (or in the address) stays a choice while the search shows others.
  const named = useQuery({ ...apiQuery(api.getSite, { params: { siteId: value ?? '' } }), enabled: missing });
  const label = chosen?.label ?? named.data?.name ?? 'Chosen site';
  const kept = value && !found.some((site) => site.value === value) ? [{ value, label }] : [];
  return (
    <Select
      label="Site"
      placeholder="All sites"
      data={[...kept, ...found]}
      value={value}
      onChange={(siteId, option) => {
        setChosen(option ?? null);
        onChange(siteId);
      }}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      clearable
      nothingFoundMessage="No sites"
      style={{ flex: '1 1 180px' }}
    />
  );
}

/** The audit log's filters: a team, a site, an event. */
export function AuditFilters({
  value,
  onChange,
}: {
  value: AuditFilterValues;
  onChange: (value: AuditFilterValues) => void;
}) {
  return (
    <Group align="flex-end" gap="sm">
      <TeamPicker value={value.teamId} onChange={(teamId) => onChange({ ...value, teamId })} />
      <SitePicker value={value.siteId} onChange={(siteId) => onChange({ ...value, siteId })} />
      <Select
        label="Event"
        placeholder="All events"
        data={eventChoices}
        value={value.event}
        onChange={(event) => onChange({ ...value, event })}
        searchable
        clearable
        nothingFoundMessage="No events"
        style={{ flex: '1 1 180px' }}
      />
    </Group>
  );
}
