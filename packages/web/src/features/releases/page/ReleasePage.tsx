import { ActionIcon, Anchor, Badge, Button, Group, List, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconDownload, IconRocket } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type Release, routePath, type Site } from '@wharf/contract';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { BackLink } from '../../../components/BackLink.tsx';
import { DetailPage } from '../../../components/DetailPage.tsx';
import { PageTitle } from '../../../components/PageTitle.tsx';
import { PasswordProtection } from '../../../components/PasswordProtection.tsx';
import { UrlLink } from '../../../components/UrlLink.tsx';
import { call } from '../../../lib/api.ts';
import { exactTime, relativeTime } from '../../../lib/time.ts';
import { PublishModal } from './PublishModal.tsx';
import { ReleaseFilesCard } from './ReleaseFiles.tsx';
import { ReleaseSourceCard } from './ReleaseSource.tsx';
import { releaseQuery } from './releaseQueries.ts';

/** The branches serving the release and since when, the forms its pages have, and what is wrong in its rules. */
function ServingCard({ site, release }: { site: Site; release: Release }) {
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="release-serving">
      <Title order={3} size="h5" mb="sm" id="release-serving">
        Served by
      </Title>
      {release.branches.length === 0 ? (
        <Text size="sm" c="dimmed">
          No branch: a draft, seen only at its own address until it is published.
        </Text>
      ) : (
        <List spacing={4} size="sm" listStyleType="none">
          {release.branches.map((branch) => (
            <List.Item key={branch._id}>
              <Anchor component={Link} to={`/sites/${site._id}/branches/${branch._id}`} size="sm" fw={600}>
                {branch.name}
              </Anchor>
              {branch.since && (
                <Text span size="sm" c="dimmed" title={exactTime(branch.since)}>
                  {' '}
                  since {relativeTime(branch.since)}
                </Text>
              )}
            </List.Item>
          ))}
        </List>
      )}
      {release.forms.length > 0 && (
        <Text size="sm" mt="sm">
          Forms: {release.forms.map((form) => form.name).join(', ')}
        </Text>
      )}
    </Paper>
  );
}

/** The lines of `_redirects`, `_headers` and `.wharf.yml` Wharf refused or doubts, with their line numbers. */
function ProblemsCard({ release }: { release: Release }) {
  if (release.ruleProblems.length === 0) return null;
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="release-problems">
      <Title order={3} size="h5" mb="sm" id="release-problems">
        Problems in its rules
      </Title>
      <List spacing={4} size="sm" listStyleType="none">
        {release.ruleProblems.map((problem) => (
          <List.Item key={`${problem.file}:${problem.line}:${problem.message}`}>
            <Badge size="sm" variant="light" color={problem.severity === 'error' ? 'red' : 'yellow'} mr={6}>
              {problem.severity}
            </Badge>
            <Text span size="sm" ff="monospace">
              {problem.file}:{problem.line}
            </Text>{' '}
            {problem.message}
          </List.Item>
        ))}
      </List>
    </Paper>
  );
}

/** The toggle of a password for the release's own address alone: a preview shown to a client while the site is public. */
function ReleasePassword({ site, release }: { site: Site; release: Release }) {
  const client = useQueryClient();
  const params = { releaseId: release._id };
  const store = (saved: Release) => client.setQueryData(releaseQuery(release._id).queryKey, saved);
  return (
    <PasswordProtection
      subject="release's address"
      hasPassword={release.hasPassword}
      withoutOwn={
        site.hasPassword
          ? "The release's address asks for the site's password."
          : "Anyone with the release's address can see it."
      }
      set={(password) => call(api.setReleasePassword, { params, body: { password } }).then(store)}
      remove={() => call(api.removeReleasePassword, { params }).then(store)}
      failures={{ set: 'set release password', remove: 'remove release password' }}
    />
  );
}

/** /sites/{siteId}/releases/{releaseId}: one release, its own address, where it came from, its files. */
export function ReleasePage({ site, canManage }: { site: Site; canManage: boolean }) {
  const { releaseId = '' } = useParams();
  const release = useQuery(releaseQuery(releaseId));
  const [publishing, setPublishing] = useState(false);
  const back = <BackLink to={`/sites/${site._id}/releases`} label="Releases" />;
  return (
    <DetailPage query={release} back={back} failure="Could not get release">
      {(data) => (
        <>
          <PageTitle
            level={2}
            title={data.name}
            badges={
              <>
                {data.branches.some((branch) => branch._id === site.mainBranch) && <Badge variant="filled">live</Badge>}
                {data.branches.length === 0 && (
                  <Badge variant="light" color="gray">
                    draft
                  </Badge>
                )}
              </>
            }
            description={<UrlLink url={data.url} label="Release link" />}
            action={
              // Its address above is the way to visit it: two buttons leave the title room on a phone.
              <Group gap="xs" wrap="nowrap">
                <ActionIcon
                  component="a"
                  // Streamed by the browser itself: a release may be larger than a page should hold.
                  href={routePath(api.downloadRelease.path, { releaseId: data._id })}
                  download
                  variant="default"
                  size="lg"
                  aria-label="Download as tar.gz"
                  title="Download as tar.gz"
                >
                  <IconDownload size={18} />
                </ActionIcon>
                {canManage && (
                  <Button size="sm" leftSection={<IconRocket size={16} />} onClick={() => setPublishing(true)}>
                    Publish
                  </Button>
                )}
              </Group>
            }
          />
          <Stack>
            <ReleaseSourceCard release={data} />
            <SimpleGrid cols={{ base: 1, md: data.ruleProblems.length > 0 ? 2 : 1 }}>
              <ServingCard site={site} release={data} />
              <ProblemsCard release={data} />
            </SimpleGrid>
            {canManage && <ReleasePassword site={site} release={data} />}
            <ReleaseFilesCard release={data} />
          </Stack>
          {publishing && <PublishModal site={site} release={data} onClose={() => setPublishing(false)} />}
        </>
      )}
    </DetailPage>
  );
}
