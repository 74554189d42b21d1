import { Badge, Button, Group, Paper, Skeleton, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconChevronRight, IconPlus, IconWebhook } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { Hook } from '@wharf/contract';
import { Link } from 'react-router';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import classes from '../../components/ListRow.module.css';
import { apiQuery } from '../../lib/api.ts';
import { countOf } from '../../lib/plural.ts';
import { exactTime, relativeTime } from '../../lib/time.ts';
import { type HookScreens, hookApi } from './hookApi.ts';
import { hookTarget, hookTypes } from './hookTypes.tsx';

function HookRow({ hook, base }: { hook: Hook; base: string }) {
  const kind = hookTypes[hook.type];
  return (
    <Link to={`${base}/${hook._id}`} className={classes.row} aria-label={`Hook ${hook.name || kind.label}`}>
      <Group wrap="nowrap" justify="space-between">
        <Group wrap="nowrap" miw={0}>
          <ThemeIcon variant="light" size={36} radius="md">
            {kind.icon}
          </ThemeIcon>
          <Stack gap={0} miw={0}>
            <Group gap={6} wrap="nowrap">
              <Text fw={600} truncate>
                {hook.name || kind.label}
              </Text>
              <Badge size="sm" variant="default">
                {kind.label}
              </Badge>
            </Group>
            <Text size="xs" c="dimmed" truncate title={exactTime(hook.createdAt)}>
              {hookTarget(hook)} · {countOf(hook.events.length, 'event')} · Created {relativeTime(hook.createdAt)}
            </Text>
          </Stack>
        </Group>
        <IconChevronRight size={18} stroke={1.5} color="var(--mantine-color-dimmed)" />
      </Group>
    </Link>
  );
}

/** The hooks of an organization, team or site, with 'Add hook'. */
export function HooksList({ context, ownerId, base }: HookScreens) {
  const { routes, owner } = hookApi(context, ownerId);
  const hooks = useQuery(apiQuery(routes.list, { params: owner }));
  const addButton = (
    <Button component={Link} to={`${base}/add`} leftSection={<IconPlus size={16} />}>
      Add hook
    </Button>
  );
  return (
    <Stack>
      {hooks.isPending && <Skeleton h={120} />}
      {hooks.error && <ErrorPanel title="Could not list hook" query={hooks} />}
      {hooks.data?.length === 0 && (
        <EmptyState
          icon={<IconWebhook size={26} stroke={1.5} />}
          title="No hooks"
          description="Hooks tell other tools what happens here: a chat channel, a mailbox or your own endpoint."
          action={addButton}
        />
      )}
      {hooks.data && hooks.data.length > 0 && (
        <>
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              Hooks tell other tools what happens here.
            </Text>
            {addButton}
          </Group>
          <Paper withBorder className={classes.list}>
            {hooks.data.map((hook) => (
              <HookRow key={hook._id} hook={hook} base={base} />
            ))}
          </Paper>
        </>
      )}
    </Stack>
  );
}
