import { api, CONSOLE_PAGE_PATH, CONSOLE_PAGE_PATH_MAX_LENGTH } from '@wharf/contract';
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { urlOf } from '../../lib/api.ts';
import { useUser } from '../../lib/session.ts';
import { readStored, storageKeys } from '../../lib/storage.ts';
import { useSystemEnv } from '../../lib/systemEnv.ts';

/** How often the counted views go to the server; they also go when the page is left. */
const FLUSH_EVERY_MS = 5_000;

/**
 * The shape of a console page: its ids (every segment with a digit, or a long one) become `:id`,
 * so `/sites/0mw3…/branches` counts as `/sites/:id/branches`. Null for what is not a console
 * page path (it is then not counted).
 */
export function pageShape(pathname: string): string | null {
  const shape = pathname
    .split('/')
    .map((segment) => (/\d/.test(segment) || segment.length > 16 ? ':id' : segment))
    .join('/')
    .replace(/(.)\/$/, '$1');
  return shape.length <= CONSOLE_PAGE_PATH_MAX_LENGTH && CONSOLE_PAGE_PATH.test(shape) ? shape : null;
}

const pending = new Map<string, number>();

/**
 * Sends what was counted. A keepalive request outlives a page being left, so the same call serves
 * the timer and page-hide; analytics never bother the user, so failures are dropped.
 */
function flush() {
  if (pending.size === 0) return;
  const views = [...pending].map(([path, count]) => ({ path, count }));
  pending.clear();
  fetch(urlOf(api.recordPageViews), {
    method: 'POST',
    keepalive: true,
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ views }),
  }).catch(() => undefined);
}

/**
 * Anonymous usage analytics (the notice of spec.md §4): counts the pages a signed-in user opens,
 * by shape only, unless the installation has them off or the user opted out.
 */
export function usePageViews() {
  const { pathname } = useLocation();
  const enabled = useSystemEnv().data?.analytics.enabled === true;
  const signedIn = Boolean(useUser().data);

  useEffect(() => {
    if (!enabled || !signedIn || readStored(storageKeys.analytics) === 'off') return;
    const shape = pageShape(pathname);
    if (shape) pending.set(shape, (pending.get(shape) ?? 0) + 1);
  }, [pathname, enabled, signedIn]);

  useEffect(() => {
    if (!enabled) return;
    const timer = window.setInterval(flush, FLUSH_EVERY_MS);
    window.addEventListener('pagehide', flush);
    return () => {
      window.clearInterval(timer);
      window.removeEventListener('pagehide', flush);
    };
  }, [enabled]);
}

/** Counts the pages shown while it is mounted (Telemetry.tsx mounts it for signed-in users). */
export function PageViewCounter() {
  usePageViews();
  return null;
}
