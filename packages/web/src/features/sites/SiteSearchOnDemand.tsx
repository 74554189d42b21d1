import { useHotkeys } from '@mantine/hooks';
import { spotlight } from '@mantine/spotlight';
import { HOTKEY_SITE_SEARCH } from '@wharf/contract';
import { useEffect, useSyncExternalStore } from 'react';
import { OnDemand } from '../../components/OnDemand.tsx';
import { lazyChunk } from '../../lib/chunks.ts';

const SiteSearch = lazyChunk(() => import('./SiteSearch.tsx').then((m) => m.SiteSearch));

/** Not asked for yet, asked for and loading, or shown once and listening for its shortcut itself. */
let phase: 'idle' | 'loading' | 'loaded' = 'idle';
const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
function enter(next: typeof phase) {
  phase = next;
  for (const listener of listeners) listener();
}

/** Opens the site search, loading its code first when this is the first time. */
export function openSiteSearch() {
  if (phase === 'idle') enter('loading');
  else if (phase === 'loaded') spotlight.open();
}

/** Opens the search once it is mounted closed, so that it sees itself open as it would any time. */
function OpenOnceLoaded() {
  useEffect(() => {
    enter('loaded');
    spotlight.open();
  }, []);
  return null;
}

/**
 * The site search of spec.md §2, loaded when first asked for (its button, or Ctrl or Cmd + K)
 * rather than with every page. Until then its shortcut is listened for here; after, the search
 * listens for it itself.
 */
export function SiteSearchOnDemand() {
  const current = useSyncExternalStore(subscribe, () => phase);
  useHotkeys(current === 'loaded' ? [] : [[HOTKEY_SITE_SEARCH, openSiteSearch]]);
  if (current === 'idle') return null;
  return (
    <OnDemand>
      <SiteSearch />
      {current === 'loading' && <OpenOnceLoaded />}
    </OnDemand>
  );
}
