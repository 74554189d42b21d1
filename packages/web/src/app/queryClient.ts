import { QueryCache, QueryClient } from '@tanstack/react-query';
import { api } from '@wharf/contract';
import { ApiError, keyOf } from '../lib/api.ts';
import { isFailed } from '../lib/failedQueries.ts';

/** One client for the whole console; a 401 anywhere means the session ended. */
export function createQueryClient() {
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({
      onError: (error) => {
        if (error instanceof ApiError && error.status === 401) client.setQueryData(keyOf(api.getUser), null);
      },
    }),
    defaultOptions: {
      queries: {
        retry: (count, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2,
        // Answers that arrived stay until real-time or a mutation changes them; failed ones are asked
        // again when the server may be reachable again: the tab is back in focus, or the network is.
        refetchOnWindowFocus: isFailed,
        refetchOnReconnect: true,
        staleTime: 10_000,
      },
    },
  });
  return client;
}
