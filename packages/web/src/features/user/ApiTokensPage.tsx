import { Button, Group, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { IconChevronRight, IconKey, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { type ApiToken, api } from '@wharf/contract';
import { Link } from 'react-router';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import classes from '../../components/ListRow.module.css';
import { apiQuery } from '../../lib/api.ts';
import { countOf } from '../../lib/plural.ts';
import { exactTime, relativeTime } from '../../lib/time.ts';
import { TokenTimingBadge } from './TokenTimingBadge.tsx';

function TokenRow({ token }: { token: ApiToken }) {
  return (
    <Link to={`/user/api-tokens/${token._id}`} className={classes.row}>
      <Group wrap="nowrap" justify="space-between">
        <Stack gap={4} miw={0}>
          <Text fw={600} truncate>
            {token.name}
          </Text>
          <Group gap="sm">
            <TokenTimingBadge token={token} />
            <Text size="xs" c="dimmed" title={exactTime(token.createdAt)}>
              Created {relativeTime(token.createdAt)} · {countOf(token.scopes.length, 'scope')}
            </Text>
          </Group>
        </Stack>
        <IconChevronRight size={18} stroke={1.5} color="var(--mantine-color-dimmed)" />
      </Group>
    </Link>
  );
}

/** /user/api-tokens: the user's tokens, newest first. */
export function ApiTokensPage() {
  const tokens = useQuery(apiQuery(api.listApiTokens));
  const addButton = (
    <Button component={Link} to="/user/api-tokens/add" leftSection={<IconPlus size={16} />}>
      Add token
    </Button>
  );
  return (
    <Stack>
      <Group justify="space-between">
        <Text size="sm" c="dimmed" maw={560}>
          API tokens let scripts and tools call the Wharf API as you, limited to the scopes you choose.
        </Text>
        {tokens.data && tokens.data.length > 0 && addButton}
      </Group>
      {tokens.isPending && <Skeleton h={160} />}
      {tokens.error && <ErrorPanel title="Could not list API tokens" query={tokens} />}
      {tokens.data?.length === 0 && (
        <EmptyState
          icon={<IconKey size={26} stroke={1.5} />}
          title="No tokens"
          description="Create a token to call the API from scripts, CI jobs or the command-line tool."
          action={addButton}
        />
      )}
      {tokens.data && tokens.data.length > 0 && (
        <Paper withBorder className={classes.list}>
          {tokens.data.map((token) => (
            <TokenRow key={token._id} token={token} />
          ))}
        </Paper>
      )}
    </Stack>
  );
}
