import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { errorText } from '../lib/notify.ts';

/** What a panel needs of a failed query: TanStack Query's results (plain or infinite) all fit. */
export interface FailedQuery {
  error: unknown;
  refetch: () => unknown;
  isFetching: boolean;
}

/**
 * spec.md §8: a loading error takes the place of the content, with the error text, and never
 * leaves the page a dead end: Retry asks again, and `actions` may offer a way elsewhere.
 */
export function ErrorPanel({ query, title, actions }: { query: FailedQuery; title: string; actions?: ReactNode }) {
  return (
    <Alert color="red" variant="light" title={title} icon={<IconAlertTriangle />} role="alert">
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{errorText(query.error)}</Text>
        <Group gap="xs">
          <Button
            size="xs"
            variant="default"
            leftSection={<IconRefresh size={14} />}
            loading={query.isFetching}
            onClick={() => void query.refetch()}
          >
            Retry
          </Button>
          {actions}
        </Group>
      </Stack>
    </Alert>
  );
}
