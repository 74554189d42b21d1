import { Button, Group, Stack, Text } from '@mantine/core';
import { IconKey, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { type ApiToken, api } from '@wharf/contract';
import { Link } from 'react-router';
import { LinkRow, RowDetail } from '../../components/ListRow.tsx';
import { ListSection } from '../../components/ListSection.tsx';
import { apiQuery } from '../../lib/api.ts';
import { countOf } from '../../lib/plural.ts';
import { exactTime, relativeTime } from '../../lib/time.ts';
import { TokenTimingBadge } from './TokenTimingBadge.tsx';

function TokenRow({ token }: { token: ApiToken }) {
  return (
    <LinkRow
      to={`/user/api-tokens/${token._id}`}
      title={token.name}
      details={
        <Group gap="sm">
          <TokenTimingBadge token={token} />
          <RowDetail title={exactTime(token.createdAt)} truncate={false}>
            Created {relativeTime(token.createdAt)} · {countOf(token.scopes.length, 'scope')}
          </RowDetail>
        </Group>
      }
    />
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
      <ListSection
        query={tokens}
        errorTitle="Could not list API tokens"
        empty={{
          icon: <IconKey size={26} stroke={1.5} />,
          title: 'No tokens',
          description: 'Create a token to call the API from scripts, CI jobs or the command-line tool.',
        }}
        action={addButton}
      >
        {(items) => items.map((token) => <TokenRow key={token._id} token={token} />)}
      </ListSection>
    </Stack>
  );
}
