import { type ReactNode, Suspense } from 'react';
import { ErrorBoundary, type FallbackProps } from 'react-error-boundary';
import { isChunkLoadError } from '../lib/chunks.ts';

/** Missing code leaves its place empty (the notice above the page says so); any other error goes up. */
function NothingIfMissing({ error }: FallbackProps) {
  if (isChunkLoadError(error)) return null;
  throw error;
}

/**
 * Where code loaded on demand (lazyChunk) shows: `fallback` while it loads, and if it cannot be
 * loaded, nothing in its place rather than the page around it failing.
 */
export function OnDemand({ children, fallback = null }: { children: ReactNode; fallback?: ReactNode }) {
  return (
    <ErrorBoundary FallbackComponent={NothingIfMissing}>
      <Suspense fallback={fallback}>{children}</Suspense>
    </ErrorBoundary>
  );
}
