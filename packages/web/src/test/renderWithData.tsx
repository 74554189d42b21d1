import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router';
import { renderWithTheme } from './render.tsx';

/** A query's key and the answer the console already holds for it. */
export type KnownAnswer = [key: readonly unknown[], data: unknown];

/**
 * Renders a screen at a console address with answers already in its query cache: they stay
 * fresh, so the screen shows them without asking the network.
 */
export function renderWithData(
  element: ReactElement,
  { known = [], at = '/' }: { known?: KnownAnswer[]; at?: string },
) {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: Number.POSITIVE_INFINITY } },
  });
  for (const [key, data] of known) client.setQueryData(key, data);
  return renderWithTheme(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[at]}>{element}</MemoryRouter>
    </QueryClientProvider>,
  );
}
