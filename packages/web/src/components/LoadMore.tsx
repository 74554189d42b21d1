import { Button } from '@mantine/core';

/** 'Load more' under a paged list, while the server holds more than it has sent. */
export function LoadMore({
  list,
}: {
  list: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => Promise<unknown> };
}) {
  if (!list.hasNextPage) return null;
  return (
    <Button variant="default" onClick={() => void list.fetchNextPage()} loading={list.isFetchingNextPage}>
      Load more
    </Button>
  );
}
