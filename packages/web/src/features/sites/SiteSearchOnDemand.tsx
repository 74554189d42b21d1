import { useHotkeys } from '@mantine/hooks';
import { spotlight } from '@mantine/spotlight';
import { HOTKEY_SITE_SEARCH } from '@wharf/contract';
import { lazy, Suspense, useSyncExternalStore } from 'react';

const SiteSearch = lazy(async () => {
  const [{ SiteSearch: search }] = await Promise.all([
    import('./SiteSearch.tsx'),
    import('../../components/allMantineStyles.ts'),
  ]);
  return { default: search };
});

let wanted = false;
const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** Opens the site search, loading its code first when this is the first time. */
export function openSiteSearch() {
  if (!wanted) {
    wanted = true;
    for (const listener of listeners) listener();
  }
  spotlight.open();
}

/**
 * The site search of spec.md §2, loaded when first asked for (its button, or Ctrl or Cmd + K)
 * rather than with every page. Until then its shortcut is listened for here; after, the search
 * listens for it itself.
 */
export function SiteSearchOnDemand() {
  const loaded = useSyncExternalStore(subscribe, () => wanted);
  useHotkeys(loaded ? [] : [[HOTKEY_SITE_SEARCH, openSiteSearch]]);
  if (!loaded) return null;
  return (
    <Suspense fallback={null}>
      <SiteSearch />
    </Suspense>
  );
}
