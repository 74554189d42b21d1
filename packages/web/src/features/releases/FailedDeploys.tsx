import { Anchor, Badge, Button, Code, Collapse, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { api, type FailedDeploy } from '@wharf/contract';
import { useState } from 'react';
import classes from '../../components/ListRow.module.css';
import { apiQuery } from '../../lib/api.ts';
import { exactTime, relativeTime } from '../../lib/time.ts';

const FIRST = 5;

/** One failed deploy: what it was, why it stopped, and its log on demand. */
function FailedDeployRow({ deploy }: { deploy: FailedDeploy }) {
  const [open, { toggle }] = useDisclosure(false);
  const name = deploy.name || 'Unnamed upload';
  const commit = deploy.source.commit ? ` · ${deploy.source.commit.slice(0, 7)}` : '';
  const who = deploy.uploader ? ` · by ${deploy.uploader.name}` : '';
  return (
    <Stack gap={6} className={classes.row} aria-label={`Failed deploy ${name}`}>
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Stack gap={2} miw={0}>
          <Group gap={6}>
            <Text fw={600} truncate>
              {name}
            </Text>
            <Badge size="sm" color="red" variant="light">
              failed
            </Badge>
          </Group>
          <Text size="sm">{deploy.message}</Text>
          <Text size="xs" c="dimmed" title={exactTime(deploy.failedAt)}>
            {relativeTime(deploy.failedAt)} · {deploy.code}
            {deploy.branches.length > 0 && ` · for ${deploy.branches.join(', ')}`}
            {commit}
            {who}
          </Text>
        </Stack>
        <Anchor
          component="button"
          type="button"
          size="sm"
          onClick={toggle}
          aria-expanded={open}
          style={{ flexShrink: 0 }}
        >
          {open ? 'Hide log' : 'Log'}
        </Anchor>
      </Group>
      <Collapse in={open}>
        <Code block>{deploy.log.join('\n')}</Code>
      </Collapse>
    </Stack>
  );
}

/** The site's deploys that made no release (kept 30 days), above its releases; nothing when there are none. */
export function FailedDeploys({ siteId }: { siteId: string }) {
  const [size, setSize] = useState(FIRST);
  const failed = useQuery(apiQuery(api.listFailedDeploys, { params: { siteId }, query: { page: 0, size } }));
  if (!failed.data || failed.data.count === 0) return null;
  const { items, count } = failed.data;
  return (
    <Paper withBorder radius="md" component="section" aria-labelledby="failed-deploys">
      <Group gap="xs" px="md" pt="md" pb="xs">
        <IconAlertTriangle size={18} color="var(--mantine-color-red-text)" aria-hidden />
        <Title order={2} size="h5" id="failed-deploys">
          Failed deploys
        </Title>
        <Text size="sm" c="dimmed">
          {count} in the last 30 days
        </Text>
      </Group>
      <div className={classes.list}>
        {items.map((deploy) => (
          <FailedDeployRow key={deploy._id} deploy={deploy} />
        ))}
      </div>
      {count > items.length && (
        <Group px="md" pb="md">
          <Button variant="subtle" size="xs" onClick={() => setSize(100)} loading={failed.isFetching}>
            Show all {Math.min(count, 100)}
          </Button>
        </Group>
      )}
    </Paper>
  );
}
