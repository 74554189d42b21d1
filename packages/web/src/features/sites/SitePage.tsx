import { Anchor, Group, Skeleton } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { api } from '@wharf/contract';
import { useParams } from 'react-router';
import { EntityAvatar } from '../../components/EntityAvatar.tsx';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { PageTitle } from '../../components/PageTitle.tsx';
import { apiQuery } from '../../lib/api.ts';

/** /sites/{siteId}: the site, with the link to its main branch. */
export function SitePage() {
  const { siteId = '' } = useParams();
  const site = useQuery(apiQuery(api.getSite, { params: { siteId } }));
  if (site.error) return <ErrorPanel title="Could not get site" error={site.error} />;
  if (!site.data) return <Skeleton h={200} />;
  return (
    <PageTitle
      leading={<EntityAvatar name={site.data.name} color={site.data.color} logo={site.data.logo} size={48} />}
      title={site.data.name}
      description={
        <Anchor href={site.data.url} target="_blank" rel="noopener noreferrer" size="sm">
          <Group gap={4} component="span" wrap="nowrap">
            {site.data.url}
            <IconExternalLink size={14} aria-hidden />
          </Group>
        </Anchor>
      }
    />
  );
}
