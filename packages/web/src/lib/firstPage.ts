import { useSyncExternalStore } from 'react';

/**
 * Whether the first page has been shown. Work that no page waits for (the counting of page views)
 * starts after it rather than competing with it for the network.
 */
let shown = false;
const listeners = new Set<() => void>();

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

export function markFirstPageShown() {
  if (shown) return;
  shown = true;
  for (const listener of listeners) listener();
}

export function useFirstPageShown() {
  return useSyncExternalStore(subscribe, () => shown);
}
