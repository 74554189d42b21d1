import { Badge, Button, Stack, ThemeIcon } from '@mantine/core';
import { IconPlus, IconWebhook } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { Hook } from '@wharf/contract';
import { Link } from 'react-router';
import { LinkRow, RowDetail } from '../../components/ListRow.tsx';
import { ListSection } from '../../components/ListSection.tsx';
import { apiQuery } from '../../lib/api.ts';
import { countOf } from '../../lib/plural.ts';
import { exactTime, relativeTime } from '../../lib/time.ts';
import { type HookScreens, hookApi } from './hookApi.ts';
import { hookTarget, hookTypes } from './hookTypes.tsx';

function HookRow({ hook, base }: { hook: Hook; base: string }) {
  const kind = hookTypes[hook.type];
  return (
    <LinkRow
      to={`${base}/${hook._id}`}
      label={`Hook ${hook.name || kind.label}`}
      leading={
        <ThemeIcon variant="light" size={36} radius="md">
          {kind.icon}
        </ThemeIcon>
      }
      title={hook.name || kind.label}
      badges={
        <Badge size="sm" variant="default">
          {kind.label}
        </Badge>
      }
      details={
        <RowDetail title={exactTime(hook.createdAt)}>
          {hookTarget(hook)} · {countOf(hook.events.length, 'event')} · Created {relativeTime(hook.createdAt)}
        </RowDetail>
      }
    />
  );
}

/** The hooks of an organization, team or site, or the signed-in user's own, with 'Add hook'. */
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
      <ListSection
        query={hooks}
        errorTitle="Could not list hook"
        empty={{
          icon: <IconWebhook size={26} stroke={1.5} />,
          title: 'No hooks',
          description: 'Hooks tell other tools what happens here: a chat channel, a mailbox or your own endpoint.',
        }}
        intro={
          context === 'users'
            ? 'Your own hooks tell other tools what happens to your account, such as API tokens created.'
            : 'Hooks tell other tools what happens here.'
        }
        action={addButton}
      >
        {(items) => items.map((hook) => <HookRow key={hook._id} hook={hook} base={base} />)}
      </ListSection>
    </Stack>
  );
}
