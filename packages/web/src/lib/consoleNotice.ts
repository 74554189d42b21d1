import { useSyncExternalStore } from 'react';

/**
 * What the console must tell about itself, above any page: part of it could not be loaded, a
 * newer build is served, or the page is reloading into it. One at a time, the most urgent kept.
 */
export type ConsoleNotice = 'chunkFailed' | 'newBuild' | 'reloading';

const urgency: Record<ConsoleNotice, number> = { newBuild: 1, chunkFailed: 2, reloading: 3 };

let notice: ConsoleNotice | null = null;
const listeners = new Set<() => void>();

function set(next: ConsoleNotice | null) {
  notice = next;
  for (const listener of listeners) listener();
}

export function showConsoleNotice(next: ConsoleNotice) {
  if (notice === null || urgency[next] >= urgency[notice]) set(next);
}

export function dismissConsoleNotice() {
  set(null);
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

export function useConsoleNotice(): ConsoleNotice | null {
  return useSyncExternalStore(subscribe, () => notice);
}
