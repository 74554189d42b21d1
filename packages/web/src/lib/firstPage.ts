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

/**
 * The console's root says it is busy (aria-busy in index.html) while it initializes: assistive
 * technology then waits for the page rather than reading the boot screen's swaps, and so can
 * anything else that must see the page as it settles (the accessibility audits).
 */
export function markSettled() {
  document.getElementById('root')?.removeAttribute('aria-busy');
}

export function markFirstPageShown() {
  markSettled();
  if (shown) return;
  shown = true;
  for (const listener of listeners) listener();
}

export function useFirstPageShown() {
  return useSyncExternalStore(subscribe, () => shown);
}
