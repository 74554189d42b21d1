import { type Location, Navigate, Outlet, useLocation } from 'react-router';
import { useCurrentOrgState } from '../lib/currentOrg.tsx';
import { useUser } from '../lib/session.ts';
import { type AccessRule, redirectFor } from './accessRules.ts';

export interface ReturnState {
  /** The page a signed-out visitor asked for, to go back to after signing in. */
  from?: Location;
}

/** Renders the child routes when the visitor may see them, else redirects as spec.md §2 says. */
export function Access({ rule }: { rule: AccessRule }) {
  const location = useLocation();
  const signedIn = Boolean(useUser().data);
  const { current } = useCurrentOrgState();
  const target = redirectFor(rule, {
    signedIn,
    hasOrg: current !== null,
    isAdminOrOwner: current?.isAdminOrOwner ?? false,
  });
  if (target === null) return <Outlet />;
  const from = (location.state as ReturnState | null)?.from;
  if (rule === 'signedOut') return <Navigate to={from ?? target} replace />;
  // Only a signed-out visitor is worth bringing back: anyone else would loop between rules.
  const state: ReturnState | null = signedIn ? null : { from: from ?? location };
  return <Navigate to={target} replace state={state} />;
}
