import { Skeleton } from '@mantine/core';
import type { ReactNode } from 'react';
import { ErrorPanel, type FailedQuery } from './ErrorPanel.tsx';

/**
 * A page about one thing (a branch, a release, a hook, a token): the way back first, then the
 * page once its query answered, a skeleton until then, or the error in its place.
 */
export function DetailPage<T>({
  query,
  back,
  failure,
  skeletonHeight = 240,
  children,
}: {
  query: FailedQuery & { data: T | undefined };
  back: ReactNode;
  /** The error panel's title: `Could not get release`. */
  failure: string;
  skeletonHeight?: number;
  children: (data: T) => ReactNode;
}) {
  if (query.error)
    return (
      <>
        {back}
        <ErrorPanel title={failure} query={query} />
      </>
    );
  if (query.data === undefined) return <Skeleton h={skeletonHeight} />;
  return (
    <>
      {back}
      {children(query.data)}
    </>
  );
}
