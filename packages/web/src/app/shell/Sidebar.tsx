import { Alert, Box, Group, NavLink, Skeleton, Stack, Text } from '@mantine/core';
import { IconHome } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { api, MAX_PAGE_SIZE, type Team } from '@wharf/contract';
import { Link, useLocation } from 'react-router';
import { EntityAvatar } from '../../components/EntityAvatar.tsx';
import { apiQuery } from '../../lib/api.ts';
import { useCurrentOrg } from '../../lib/currentOrg.tsx';
import { failureMessage } from '../../lib/notify.ts';
import classes from './Sidebar.module.css';

function TeamSites({ team, onNavigate }: { team: Team; onNavigate: () => void }) {
  const { pathname } = useLocation();
  const sites = useQuery(apiQuery(api.listTeamSites, { params: { teamId: team._id } }));
  const teamPath = `/teams/${team._id}`;
  return (
    <>
      <NavLink
        label={team.name}
        leftSection={<EntityAvatar name={team.name} color={team.color} logo={team.logo} size={22} radius="sm" />}
        active={pathname.startsWith(teamPath)}
        component={Link}
        to={teamPath}
        onClick={onNavigate}
        fw={500}
      />
      <Stack gap={0} pl={22} ml={11} style={{ borderLeft: '1px solid var(--mantine-color-default-border)' }}>
        {sites.error && (
          <Text size="xs" c="red" px="sm" py={4}>
            {failureMessage('list sites', sites.error)}
          </Text>
        )}
        {sites.data?.map((site) => (
          <NavLink
            key={site._id}
            label={site.name}
            component={Link}
            to={`/sites/${site._id}`}
            active={pathname.startsWith(`/sites/${site._id}`)}
            onClick={onNavigate}
            py={4}
            leftSection={<EntityAvatar name={site.name} color={site.color} logo={site.logo} size={18} radius="sm" />}
          />
        ))}
      </Stack>
    </>
  );
}

/** spec.md §2: the sidebar lists teams, each with its sites. */
export function Sidebar({ onNavigate }: { onNavigate: () => void }) {
  const { org } = useCurrentOrg();
  const { pathname } = useLocation();
  const teams = useQuery(apiQuery(api.listTeams, { params: { orgId: org._id }, query: { size: MAX_PAGE_SIZE } }));
  return (
    <Box className={classes.scroll} p="sm">
      <Stack gap={2} component="nav" aria-label="Teams and sites">
        <Group gap="xs" px="sm" pb="sm" wrap="nowrap" hiddenFrom="xs">
          <EntityAvatar name={org.name} color={org.color} logo={org.logo} size={26} />
          <Text fw={600} size="sm" truncate>
            {org.name}
          </Text>
        </Group>
        <NavLink
          label="Teams"
          leftSection={<IconHome size={18} stroke={1.5} />}
          component={Link}
          to="/"
          active={pathname === '/'}
          onClick={onNavigate}
        />
        <Group px="sm" pt="md" pb={4}>
          <Text size="xs" fw={700} c="dimmed" tt="uppercase" style={{ letterSpacing: '0.05em' }}>
            Teams and sites
          </Text>
        </Group>
        {teams.isPending && [0, 1, 2].map((key) => <Skeleton key={key} h={28} radius="sm" my={4} />)}
        {teams.error && (
          <Alert color="red" variant="light" p="xs">
            <Text size="xs">{failureMessage('list teams', teams.error)}</Text>
          </Alert>
        )}
        {teams.data?.items.map((team) => (
          <TeamSites key={team._id} team={team} onNavigate={onNavigate} />
        ))}
        {teams.data?.items.length === 0 && (
          <Text size="xs" c="dimmed" px="sm">
            No teams
          </Text>
        )}
      </Stack>
    </Box>
  );
}
