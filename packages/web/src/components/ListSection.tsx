import { Group, Skeleton, Text } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { EmptyState } from './EmptyState.tsx';
import { ErrorPanel } from './ErrorPanel.tsx';
import { RowList } from './ListRow.tsx';

/**
 * A tab's list of entries: a skeleton while it loads, an error panel, an empty state with the add
 * action, or a line about the entries beside the add action above their rows.
 */
export function ListSection<Item>({
  query,
  errorTitle,
  empty,
  intro,
  action,
  children,
}: {
  query: UseQueryResult<Item[]>;
  errorTitle: string;
  empty: { icon: ReactNode; title: string; description: ReactNode };
  /** The line above the rows; without it the page shows its own. */
  intro?: ReactNode;
  action?: ReactNode;
  children: (items: Item[]) => ReactNode;
}) {
  const items = query.data;
  return (
    <>
      {query.isPending && <Skeleton h={120} />}
      {query.error && <ErrorPanel title={errorTitle} query={query} />}
      {items?.length === 0 && <EmptyState {...empty} action={action} />}
      {items && items.length > 0 && (
        <>
          {intro && (
            <Group justify="space-between">
              <Text size="sm" c="dimmed">
                {intro}
              </Text>
              {action}
            </Group>
          )}
          <RowList>{children(items)}</RowList>
        </>
      )}
    </>
  );
}
