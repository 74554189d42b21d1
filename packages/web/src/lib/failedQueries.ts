import type { Query, QueryClient } from '@tanstack/react-query';

/** A query whose last answer was a failure: the ones worth asking again once the server may be back. */
export function isFailed(query: Query): boolean {
  return query.state.status === 'error';
}

/** Asks again every shown query that failed. */
export function refetchFailed(client: QueryClient) {
  return client.refetchQueries({ type: 'active', predicate: isFailed });
}
