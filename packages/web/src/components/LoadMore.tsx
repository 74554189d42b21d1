import { Button, Group, Text } from '@mantine/core';
import { countOf } from '../lib/plural.ts';

type PagedList = { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => Promise<unknown> };

/** 'Load more' under a paged list, while the server holds more than it has sent. */
export function LoadMore({ list }: { list: PagedList }) {
  if (!list.hasNextPage) return null;
  return (
    <Button variant="default" onClick={() => void list.fetchNextPage()} loading={list.isFetchingNextPage}>
      Load more
    </Button>
  );
}

/** Under a paged list: how many of how many are shown ('20 of 23 events'), and 'Load more'. */
export function PageFooter({
  list,
  shown,
  total,
  noun,
  plural,
}: {
  list: PagedList;
  shown: number;
  total: number;
  noun: string;
  plural?: string;
}) {
  return (
    <Group justify="space-between">
      <Text size="sm" c="dimmed">
        {shown} of {countOf(total, noun, plural)}
      </Text>
      <LoadMore list={list} />
    </Group>
  );
}
