import { Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconAdjustments, IconGitBranch, IconList, IconShieldLock } from '@tabler/icons-react';
import type { Site } from '@wharf/contract';
import { Route, Routes } from 'react-router';
import { DeleteSiteButton } from '../../components/DeleteSite.tsx';
import { NotFound } from '../../components/NotFound.tsx';
import { RouteTabs } from '../../components/RouteTabs.tsx';
import { useCurrentOrg } from '../../lib/currentOrg.tsx';
import { GeneralSettings } from './GeneralSettings.tsx';
import { RepositorySettings } from './RepositorySettings.tsx';
import { RetentionSettings } from './RetentionSettings.tsx';
import { SecuritySettings } from './SecuritySettings.tsx';
import { SiteCertificates } from './SiteCertificates.tsx';
import { SiteHeadersSettings } from './SiteHeadersSettings.tsx';
import { SiteLogo } from './SiteLogo.tsx';

function DangerZone({ site }: { site: Site }) {
  return (
    <Card style={{ borderColor: 'var(--mantine-color-red-outline)' }}>
      <Group justify="space-between" gap="md">
        <Stack gap={4} maw={520}>
          <Title order={2} size="h4" c="red">
            Danger zone
          </Title>
          <Text size="sm" c="dimmed">
            Deleting the site removes its branches, releases, tokens and hooks, and its addresses stop answering.
          </Text>
        </Stack>
        <DeleteSiteButton site={site} />
      </Group>
    </Card>
  );
}

/** The Settings tab of a site: General (with the danger zone), Headers, Security and Repository, each at its own address. */
export function SiteSettings({ site }: { site: Site }) {
  const { isAdminOrOwner } = useCurrentOrg();
  const base = `/sites/${site._id}/settings`;
  return (
    <>
      <RouteTabs
        base={base}
        variant="pills"
        label="Site settings"
        tabs={[
          { value: '', label: 'General', icon: <IconAdjustments size={16} /> },
          { value: 'headers', label: 'Headers', icon: <IconList size={16} /> },
          { value: 'security', label: 'Security', icon: <IconShieldLock size={16} /> },
          { value: 'repository', label: 'Repository', icon: <IconGitBranch size={16} /> },
        ]}
      />
      <Stack gap="lg">
        <Routes>
          <Route
            index
            element={
              <>
                <GeneralSettings key={site._id} site={site} />
                <SiteCertificates site={site} />
                <RetentionSettings key={`retention-${site._id}`} site={site} />
                <SiteLogo site={site} />
                {isAdminOrOwner && <DangerZone site={site} />}
              </>
            }
          />
          <Route path="headers/*" element={<SiteHeadersSettings site={site} />} />
          <Route path="security" element={<SecuritySettings site={site} />} />
          <Route path="repository" element={<RepositorySettings site={site} />} />
          <Route path="*" element={<NotFound />} />
        </Routes>
      </Stack>
    </>
  );
}
