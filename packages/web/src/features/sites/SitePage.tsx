import { ActionIcon, Anchor, Badge, Group, Skeleton } from '@mantine/core';
import {
  IconArrowBackUp,
  IconChartAreaLine,
  IconExternalLink,
  IconGitBranch,
  IconHammer,
  IconInbox,
  IconKey,
  IconLock,
  IconPackage,
  IconSettings,
  IconWebhook,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { api } from '@wharf/contract';
import { useState } from 'react';
import { Link, Route, Routes, useParams } from 'react-router';
import { DefaultTab } from '../../components/DefaultTab.tsx';
import { SiteMenu } from '../../components/DeleteSite.tsx';
import { EntityAvatar } from '../../components/EntityAvatar.tsx';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { NotFound } from '../../components/NotFound.tsx';
import { PageTitle } from '../../components/PageTitle.tsx';
import { RouteTabs } from '../../components/RouteTabs.tsx';
import { UrlLink } from '../../components/UrlLink.tsx';
import { apiQuery } from '../../lib/api.ts';
import { useCurrentOrg } from '../../lib/currentOrg.tsx';
import { BranchesTab } from '../branches/BranchesTab.tsx';
import { BranchPage } from '../branches/BranchPage.tsx';
import { BuildPage } from '../builds/BuildPage.tsx';
import { BuildsTab } from '../builds/BuildsTab.tsx';
import { HooksRoutes } from '../hooks/HooksRoutes.tsx';
import { LiveRelease } from '../releases/LiveRelease.tsx';
import { ReleasePage } from '../releases/page/ReleasePage.tsx';
import { ReleasesTab } from '../releases/ReleasesTab.tsx';
import { RollBackModal } from '../releases/RollBackModal.tsx';
import { SiteSettings } from '../siteSettings/SiteSettings.tsx';
import { SiteTokensTab } from '../siteTokens/SiteTokensTab.tsx';
import { SubmissionsList } from '../submissions/SubmissionsList.tsx';
import { TrafficCard } from '../traffic/TrafficCard.tsx';
import { TrafficTab } from '../traffic/TrafficTab.tsx';
import { SiteLiveUpdates } from './SiteLiveUpdates.tsx';
import { useCanManageSite } from './useCanManageSite.ts';

/** /sites/{siteId}: the site's header, traffic and tabs, each tab at its own address. */
export function SitePage() {
  const { siteId = '' } = useParams();
  const { isAdminOrOwner } = useCurrentOrg();
  const site = useQuery(apiQuery(api.getSite, { params: { siteId } }));
  const team = useQuery({
    ...apiQuery(api.getTeam, { params: { teamId: site.data?.teamId ?? '' } }),
    enabled: !!site.data,
  });
  const canManage = useCanManageSite(site.data);
  const [rollingBack, setRollingBack] = useState(false);

  if (site.error) return <ErrorPanel title="Could not get site" query={site} />;
  if (!site.data || canManage === undefined) return <Skeleton h={200} />;
  const base = `/sites/${siteId}`;
  const tabs = [
    { value: 'branches', label: 'Branches', icon: <IconGitBranch size={16} /> },
    { value: 'releases', label: 'Releases', icon: <IconPackage size={16} /> },
    { value: 'builds', label: 'Builds', icon: <IconHammer size={16} /> },
    { value: 'traffic', label: 'Traffic', icon: <IconChartAreaLine size={16} /> },
    ...(canManage
      ? [
          { value: 'submissions', label: 'Submissions', icon: <IconInbox size={16} /> },
          { value: 'tokens', label: 'Tokens', icon: <IconKey size={16} /> },
          { value: 'hooks', label: 'Hooks', icon: <IconWebhook size={16} /> },
          { value: 'settings', label: 'Settings', icon: <IconSettings size={16} /> },
        ]
      : []),
  ];
  return (
    <>
      <SiteLiveUpdates siteId={siteId} />
      <PageTitle
        leading={<EntityAvatar name={site.data.name} color={site.data.color} logo={site.data.logo} size={48} />}
        title={
          <Group gap="xs" component="span">
            {site.data.name}
            {site.data.hasPassword && (
              <Badge variant="light" color="yellow" leftSection={<IconLock size={12} />}>
                password
              </Badge>
            )}
          </Group>
        }
        description={
          <Group gap={6} component="span" wrap="wrap">
            {team.data && (
              <>
                <Anchor component={Link} to={`/teams/${team.data._id}`} size="sm" c="dimmed">
                  {team.data.name}
                </Anchor>
                <span aria-hidden>·</span>
              </>
            )}
            <UrlLink url={site.data.url} label="Main branch link" />
            <LiveRelease site={site.data} />
          </Group>
        }
        action={
          <Group gap="xs" wrap="nowrap">
            {/* An icon: the header's title keeps its room on a phone. */}
            <ActionIcon
              component="a"
              href={site.data.url}
              target="_blank"
              rel="noopener noreferrer"
              variant="default"
              size="lg"
              aria-label="Visit"
              title="Visit the site"
            >
              <IconExternalLink size={18} />
            </ActionIcon>
            {canManage && site.data.live && (
              <ActionIcon
                variant="default"
                size="lg"
                aria-label="Roll back"
                title="Roll back the main branch"
                onClick={() => setRollingBack(true)}
              >
                <IconArrowBackUp size={18} />
              </ActionIcon>
            )}
            {isAdminOrOwner && <SiteMenu site={site.data} />}
          </Group>
        }
      />
      <RouteTabs base={base} tabs={tabs} />
      <Routes>
        <Route index element={<DefaultTab tab="branches" />} />
        <Route
          path="branches"
          element={
            <>
              <TrafficCard siteId={siteId} />
              <BranchesTab site={site.data} canManage={canManage} />
            </>
          }
        />
        <Route path="branches/:branchId/*" element={<BranchPage site={site.data} canManage={canManage} />} />
        <Route path="releases" element={<ReleasesTab site={site.data} canManage={canManage} />} />
        <Route path="releases/:releaseId" element={<ReleasePage site={site.data} canManage={canManage} />} />
        <Route path="builds" element={<BuildsTab site={site.data} canManage={canManage} />} />
        <Route path="builds/:buildId" element={<BuildPage site={site.data} canManage={canManage} />} />
        <Route path="traffic" element={<TrafficTab siteId={siteId} />} />
        {canManage && (
          <>
            <Route path="submissions" element={<SubmissionsList siteId={siteId} />} />
            <Route path="tokens" element={<SiteTokensTab siteId={siteId} />} />
            <Route path="hooks/*" element={<HooksRoutes context="sites" ownerId={siteId} base={`${base}/hooks`} />} />
            <Route path="settings/*" element={<SiteSettings site={site.data} />} />
          </>
        )}
        <Route path="*" element={<NotFound />} />
      </Routes>
      {rollingBack && <RollBackModal site={site.data} onClose={() => setRollingBack(false)} />}
    </>
  );
}
