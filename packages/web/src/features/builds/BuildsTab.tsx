import { Alert, Anchor, Badge, Button, Group, Skeleton, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconGitBranch, IconHammer, IconInfoCircle } from '@tabler/icons-react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api, type Build, type Site } from '@wharf/contract';
import { Link } from 'react-router';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { LinkRow, RowList } from '../../components/ListRow.tsx';
import { PageFooter } from '../../components/LoadMore.tsx';
import { apiQuery } from '../../lib/api.ts';
import { useSystemEnv } from '../../lib/systemEnv.ts';
import { exactTime, formatDuration, relativeTime } from '../../lib/time.ts';
import { buildsQuery } from './buildsQuery.ts';
import { buildDurationMs, buildStates, buildTitle, triggerText } from './buildText.ts';
import { StartBuildModal } from './StartBuildModal.tsx';

export function BuildStateBadge({ build }: { build: Build }) {
  const { label, color } = buildStates[build.state];
  return (
    <Badge size="sm" variant="light" color={color}>
      {label}
    </Badge>
  );
}

function BuildRow({ build }: { build: Build }) {
  const duration = buildDurationMs(build);
  const subject = build.source.message?.split('\n')[0];
  return (
    <LinkRow
      to={`/sites/${build.siteId}/builds/${build._id}`}
      label={`Build ${buildTitle(build)}`}
      leading={<IconHammer size={20} stroke={1.5} aria-hidden />}
      title={buildTitle(build)}
      badges={<BuildStateBadge build={build} />}
      details={
        <>
          {subject && (
            <Text size="sm" truncate>
              {subject}
            </Text>
          )}
          <Text size="xs" c="dimmed" title={exactTime(build.createdAt)}>
            {relativeTime(build.createdAt)} · {triggerText(build)}
            {duration !== null && build.finishedAt && ` · ${formatDuration(duration)}`}
            {build.branch !== build.gitBranch && ` · to ${build.branch}`}
          </Text>
        </>
      }
    />
  );
}

/** /sites/{siteId}/builds: the site's builds, newest first, and Build now for those who manage it. */
export function BuildsTab({ site, canManage }: { site: Site; canManage: boolean }) {
  const [starting, start] = useDisclosure(false);
  const buildsOn = useSystemEnv().data?.features.builds;
  const repository = useQuery(apiQuery(api.getSiteRepository, { params: { siteId: site._id } }));
  const builds = useInfiniteQuery(buildsQuery(site._id));
  if (repository.error) return <ErrorPanel title="Could not get repository" query={repository} />;
  if (builds.error) return <ErrorPanel title="Could not list builds" query={builds} />;
  if (repository.data === undefined || !builds.data || buildsOn === undefined) return <Skeleton h={160} />;
  const items = builds.data.pages.flatMap((page) => page.items);
  const count = builds.data.pages.at(-1)?.count ?? 0;
  const connected = repository.data;
  const action = connected && buildsOn && canManage && (
    <Button leftSection={<IconHammer size={16} />} onClick={start.open}>
      Build now
    </Button>
  );
  return (
    <Stack>
      {!buildsOn && (
        <Alert variant="light" icon={<IconInfoCircle />} title="Builds are off on this installation">
          Its operator has configured no container runtime (<code>WHARF_BUILD_RUNTIME</code>). Deploy from CI with the{' '}
          <code>wharf</code> command meanwhile.
        </Alert>
      )}
      {!connected && items.length === 0 && (
        <EmptyState
          icon={<IconGitBranch size={26} stroke={1.5} />}
          title="No repository connected"
          description="Connect the site to its git repository and Wharf builds it in a container: on demand, or whenever a build hook is called."
          action={
            canManage && (
              <Button component={Link} to={`/sites/${site._id}/settings/repository`}>
                Connect a repository
              </Button>
            )
          }
        />
      )}
      {connected && items.length === 0 && (
        <EmptyState
          icon={<IconHammer size={26} stroke={1.5} />}
          title="No builds yet"
          description={`Builds of ${connected.url} appear here, with their logs.`}
          action={action}
        />
      )}
      {items.length > 0 && (
        <>
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              {connected ? (
                <>
                  Built from{' '}
                  <Anchor component={Link} to={`/sites/${site._id}/settings/repository`}>
                    {connected.url}
                  </Anchor>
                </>
              ) : (
                'No repository is connected any more'
              )}
            </Text>
            {action}
          </Group>
          <RowList>
            {items.map((build) => (
              <BuildRow key={build._id} build={build} />
            ))}
          </RowList>
          <PageFooter list={builds} shown={items.length} total={count} noun="build" />
        </>
      )}
      {connected && (
        <StartBuildModal
          siteId={site._id}
          productionBranch={connected.productionBranch}
          opened={starting}
          onClose={start.close}
        />
      )}
    </Stack>
  );
}
