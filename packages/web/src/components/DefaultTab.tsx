import { Navigate, useLocation } from 'react-router';

/**
 * The index route of a page with tabs: its base path always lands on its default tab (spec.md §2
 * 'The base path redirects to …'), replacing the base path in the history so that Back never
 * returns to a page without a tab. `tab` is relative to the page's route.
 *
 * Keyed by the location because <Navigate> only acts when it mounts: when the base path is
 * visited again while this route is still shown (a second click on the same link before the
 * first redirect lands), the new visit must redirect too.
 */
export function DefaultTab({ tab }: { tab: string }) {
  const location = useLocation();
  return <Navigate key={location.key} to={tab} replace />;
}
