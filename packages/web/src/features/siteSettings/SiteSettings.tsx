import { Card, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconAdjustments, IconList, IconShieldLock } from '@tabler/icons-react';
import type { Site } from '@wharf/contract';
import { Route, Routes, useLocation, useNavigate } from 'react-router';
import { NotFound } from '../../components/NotFound.tsx';
import { useCurrentOrg } from '../orgs/currentOrg.tsx';
import { DeleteSiteButton } from '../sites/DeleteSite.tsx';
import { GeneralSettings } from './GeneralSettings.tsx';
import { SecuritySettings } from './SecuritySettings.tsx';
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

/** The Settings tab of a site: General (with the danger zone), Headers and Security, each at its own address. */
export function SiteSettings({ site }: { site: Site }) {
  const { isAdminOrOwner } = useCurrentOrg();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const base = `/sites/${site._id}/settings`;
  const pages = [
    { path: base, label: 'General', icon: <IconAdjustments size={16} /> },
    { path: `${base}/headers`, label: 'Headers', icon: <IconList size={16} /> },
    { path: `${base}/security`, label: 'Security', icon: <IconShieldLock size={16} /> },
  ];
  const active = [...pages].reverse().find((page) => pathname.startsWith(page.path));
  return (
    <Stack gap="lg">
      <Tabs value={active?.path ?? null} onChange={(path) => path && navigate(path)} variant="pills">
        <Tabs.List aria-label="Site settings">
          {pages.map((page) => (
            <Tabs.Tab key={page.path} value={page.path} leftSection={page.icon}>
              {page.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <Routes>
        <Route
          index
          element={
            <>
              <GeneralSettings key={site._id} site={site} />
              <SiteLogo site={site} />
              {isAdminOrOwner && <DangerZone site={site} />}
            </>
          }
        />
        <Route path="headers/*" element={<SiteHeadersSettings site={site} />} />
        <Route path="security" element={<SecuritySettings site={site} />} />
        <Route path="*" element={<NotFound />} />
      </Routes>
    </Stack>
  );
}
