import { Skeleton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconSettings, IconUsers, IconWebhook, IconWorldWww } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type Team } from '@wharf/contract';
import { Route, Routes, useNavigate, useParams } from 'react-router';
import { DefaultTab } from '../../components/DefaultTab.tsx';
import { DeleteConfirm } from '../../components/DeleteConfirm.tsx';
import { EntityAvatar } from '../../components/EntityAvatar.tsx';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { NotFound } from '../../components/NotFound.tsx';
import { DeleteMenuItem, PageMenu } from '../../components/PageMenu.tsx';
import { PageTitle } from '../../components/PageTitle.tsx';
import { RouteTabs } from '../../components/RouteTabs.tsx';
import { apiQuery, call } from '../../lib/api.ts';
import { useCurrentOrg } from '../../lib/currentOrg.tsx';
import { HooksRoutes } from '../hooks/HooksRoutes.tsx';
import { TeamMembersTab } from './TeamMembersTab.tsx';
import { TeamSettingsTab } from './TeamSettingsTab.tsx';
import { TeamSitesTab } from './TeamSitesTab.tsx';

function TeamMenu({ team }: { team: Team }) {
  const [opened, { open, close }] = useDisclosure(false);
  const client = useQueryClient();
  const navigate = useNavigate();
  return (
    <>
      <PageMenu label="Team actions">
        <DeleteMenuItem onClick={open} />
      </PageMenu>
      <DeleteConfirm
        opened={opened}
        onClose={close}
        title="Delete team"
        failure="delete team"
        remove={() => call(api.deleteTeam, { params: { teamId: team._id } })}
        onDeleted={async () => {
          navigate('/');
          await client.invalidateQueries({ queryKey: [api.listTeams.path] });
          client.removeQueries({ queryKey: [api.getTeam.path, { teamId: team._id }] });
        }}
      >
        Delete <b>{team.name}</b> with all its sites, their branches and releases? Their addresses stop answering at
        once. This cannot be undone.
      </DeleteConfirm>
    </>
  );
}

/** /teams/{teamId}: the team's sites, members, hooks and settings, each tab at its own address. */
export function TeamPage() {
  const { teamId = '' } = useParams();
  const { isAdminOrOwner } = useCurrentOrg();
  const team = useQuery(apiQuery(api.getTeam, { params: { teamId } }));

  if (team.error) return <ErrorPanel title="Could not get team" query={team} />;
  if (!team.data) return <Skeleton h={200} />;
  const base = `/teams/${teamId}`;
  const tabs = [
    { value: 'sites', label: 'Sites', icon: <IconWorldWww size={16} /> },
    { value: 'members', label: 'Members', icon: <IconUsers size={16} /> },
    ...(isAdminOrOwner
      ? [
          { value: 'hooks', label: 'Hooks', icon: <IconWebhook size={16} /> },
          { value: 'settings', label: 'Settings', icon: <IconSettings size={16} /> },
        ]
      : []),
  ];
  return (
    <>
      <PageTitle
        leading={<EntityAvatar name={team.data.name} color={team.data.color} logo={team.data.logo} size={48} />}
        title={team.data.name}
        description="Team"
        action={isAdminOrOwner && <TeamMenu team={team.data} />}
      />
      <RouteTabs base={base} tabs={tabs} />
      <Routes>
        <Route index element={<DefaultTab tab="sites" />} />
        <Route path="sites" element={<TeamSitesTab teamId={teamId} />} />
        <Route path="members" element={<TeamMembersTab teamId={teamId} />} />
        {isAdminOrOwner && (
          <>
            <Route path="hooks/*" element={<HooksRoutes context="teams" ownerId={teamId} base={`${base}/hooks`} />} />
            <Route path="settings" element={<TeamSettingsTab team={team.data} />} />
          </>
        )}
        <Route path="*" element={<NotFound />} />
      </Routes>
    </>
  );
}
