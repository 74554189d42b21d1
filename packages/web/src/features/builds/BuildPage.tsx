import { Alert, Anchor, Button, Code, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import {
  IconAlertTriangle,
  IconCheck,
  IconClock,
  IconLoader2,
  IconPlayerSkipForward,
  IconRepeat,
  IconX,
} from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type Build, type BuildPhase, type Site } from '@wharf/contract';
import { Link, useNavigate, useParams } from 'react-router';
import { BackLink } from '../../components/BackLink.tsx';
import { DetailPage } from '../../components/DetailPage.tsx';
import { apiQuery, call } from '../../lib/api.ts';
import { notifyFailure } from '../../lib/notify.ts';
import { exactTime, formatDuration, relativeTime } from '../../lib/time.ts';
import { BuildLogView } from './BuildLogView.tsx';
import { BuildStateBadge } from './BuildsTab.tsx';
import { buildDurationMs, buildTitle, isFinished, phaseLabels, triggerText } from './buildText.ts';

const phaseIcons: Record<BuildPhase['state'], { icon: typeof IconCheck; color: string }> = {
  running: { icon: IconLoader2, color: 'blue' },
  succeeded: { icon: IconCheck, color: 'green' },
  failed: { icon: IconX, color: 'red' },
  skipped: { icon: IconPlayerSkipForward, color: 'gray' },
};

function Phases({ build }: { build: Build }) {
  if (build.phases.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {build.state === 'queued' ? 'Waiting for a builder.' : 'No phase ran.'}
      </Text>
    );
  return (
    <Stack gap={6} component="ol" aria-label="Phases" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {build.phases.map((phase) => {
        const { icon: Icon, color } = phaseIcons[phase.state];
        return (
          <Group
            key={phase.name}
            component="li"
            gap="sm"
            wrap="nowrap"
            aria-label={`${phaseLabels[phase.name]}: ${phase.state}`}
          >
            <ThemeIcon size={22} radius="xl" variant="light" color={color}>
              <Icon size={14} aria-hidden />
            </ThemeIcon>
            <Text size="sm" style={{ flex: 1 }}>
              {phaseLabels[phase.name]}
            </Text>
            <Text size="sm" c="dimmed">
              {phase.state === 'skipped'
                ? 'skipped'
                : phase.durationMs === null
                  ? 'running'
                  : formatDuration(phase.durationMs)}
            </Text>
          </Group>
        );
      })}
    </Stack>
  );
}

function Outcome({ build }: { build: Build }) {
  if (build.state === 'succeeded' && build.releaseId)
    return (
      <Alert variant="light" color="green" icon={<IconCheck />} title={`Published to ${build.branch}`}>
        <Anchor component={Link} to={`/sites/${build.siteId}/releases/${build.releaseId}`}>
          See the release
        </Anchor>
      </Alert>
    );
  if (build.state === 'failed' || build.state === 'cancelled')
    return (
      <Alert
        variant="light"
        color={build.state === 'failed' ? 'red' : 'gray'}
        icon={<IconAlertTriangle />}
        title={build.state === 'failed' ? 'The build failed' : 'Cancelled'}
      >
        {build.error}
      </Alert>
    );
  return null;
}

function Actions({ build }: { build: Build }) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const params = { siteId: build.siteId, buildId: build._id };
  const cancel = useMutation({
    mutationFn: () => call(api.cancelBuild, { params }),
    onSuccess: () => void client.invalidateQueries({ queryKey: [api.getBuild.path] }),
    onError: (error) => notifyFailure('cancel build', error),
  });
  const retry = useMutation({
    mutationFn: () => call(api.retryBuild, { params }),
    onSuccess: (retried) => {
      void client.invalidateQueries({ queryKey: [api.listBuilds.path] });
      navigate(`/sites/${build.siteId}/builds/${retried._id}`);
    },
    onError: (error) => notifyFailure('retry build', error),
  });
  if (!isFinished(build))
    return (
      <Button
        variant="default"
        color="red"
        leftSection={<IconX size={16} />}
        loading={cancel.isPending}
        onClick={() => cancel.mutate()}
      >
        Cancel
      </Button>
    );
  return (
    <Button
      variant="default"
      leftSection={<IconRepeat size={16} />}
      loading={retry.isPending}
      onClick={() => retry.mutate()}
    >
      Retry
    </Button>
  );
}

function Summary({ build }: { build: Build }) {
  const [subject, ...body] = (build.source.message ?? '').split('\n');
  const duration = buildDurationMs(build);
  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap={6}>
        {subject && <Text fw={600}>{subject}</Text>}
        {body.join('').trim() && (
          <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-line' }} lineClamp={4}>
            {body.join('\n').trim()}
          </Text>
        )}
        <Text size="sm" c="dimmed">
          {build.source.commit && <Code>{build.source.commit.slice(0, 12)}</Code>}{' '}
          {build.source.author && `by ${build.source.author} · `}
          <span title={exactTime(build.createdAt)}>{relativeTime(build.createdAt)}</span> ·{' '}
          {build.source.pullRequestUrl ? (
            <Anchor href={build.source.pullRequestUrl} target="_blank" rel="noopener noreferrer" size="sm">
              {triggerText(build)}
            </Anchor>
          ) : (
            triggerText(build)
          )}
          {duration !== null && build.finishedAt && ` · took ${formatDuration(duration)}`} · image {build.image}
        </Text>
      </Stack>
    </Paper>
  );
}

/** /sites/{siteId}/builds/{buildId}: a build's commit, trigger, phases, outcome and live log. */
export function BuildPage({ site, canManage }: { site: Site; canManage: boolean }) {
  const { buildId = '' } = useParams();
  const build = useQuery({
    ...apiQuery(api.getBuild, { params: { siteId: site._id, buildId } }),
    // Phases move on without an event of their own: asked again while it runs.
    refetchInterval: (query) => (query.state.data && isFinished(query.state.data) ? false : 2_000),
  });
  return (
    <DetailPage
      query={build}
      failure="Could not get build"
      back={<BackLink to={`/sites/${site._id}/builds`} label="All builds" />}
    >
      {(data) => (
        <Stack>
          <Group justify="space-between" align="flex-start">
            <Group gap="xs">
              <Title order={2} size="h3">
                {buildTitle(data)}
              </Title>
              <BuildStateBadge build={data} />
            </Group>
            {canManage && <Actions build={data} />}
          </Group>
          <Summary build={data} />
          <Outcome build={data} />
          <Paper withBorder p="md" radius="md" component="section" aria-labelledby="build-phases">
            <Title order={3} size="h5" mb="sm" id="build-phases">
              <Group gap={6} component="span">
                <IconClock size={16} aria-hidden />
                Phases
              </Group>
            </Title>
            <Phases build={data} />
          </Paper>
          <BuildLogView siteId={site._id} buildId={data._id} finished={isFinished(data)} />
        </Stack>
      )}
    </DetailPage>
  );
}
