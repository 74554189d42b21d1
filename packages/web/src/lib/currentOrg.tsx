import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type CurrentMember, type Org } from '@wharf/contract';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiError, apiQuery } from './api.ts';
import { notifyFailure } from './notify.ts';
import { userQuery, useUser } from './session.ts';
import { sessionCookieAtLoad } from './sessionCookie.ts';
import { readStored, storageKeys, writeStored } from './storage.ts';

export interface CurrentOrg {
  org: Org;
  member: CurrentMember;
  isAdminOrOwner: boolean;
}

interface CurrentOrgState {
  current: CurrentOrg | null;
  /** The stored organization is being loaded. */
  loading: boolean;
  /** Stores the choice and loads the organization, then goes to its home. */
  select(orgId: string): Promise<void>;
  /** Forgets the current organization and goes to /orgs. */
  leave(): void;
}

const CurrentOrgContext = createContext<CurrentOrgState | null>(null);

const orgQuery = (orgId: string) => apiQuery(api.getOrg, { params: { orgId } });
const memberQuery = (orgId: string) => apiQuery(api.getCurrentMember, { params: { orgId } });

/**
 * Starts asking for the user, and for the stored organization when the page came with a session
 * cookie, as the console's code starts: the first render then finds them on their way.
 */
export function prefetchSession(client: QueryClient) {
  void client.prefetchQuery(userQuery);
  const orgId = readStored(storageKeys.currentOrg);
  if (orgId === null || sessionCookieAtLoad !== 'present') return;
  void client.prefetchQuery(orgQuery(orgId));
  void client.prefetchQuery(memberQuery(orgId));
}

/** spec.md §4 'Current org': stored locally, loaded at start with the user's membership. */
export function CurrentOrgProvider({ children }: { children: ReactNode }) {
  const user = useUser().data;
  const client = useQueryClient();
  const navigate = useNavigate();
  const [orgId, setOrgId] = useState(() => readStored(storageKeys.currentOrg));
  // A page that came with a session cookie asks for its organization while it asks for its user:
  // the organization's home shows a round trip sooner.
  const likelySignedIn = user === undefined ? sessionCookieAtLoad === 'present' : user !== null;
  const enabled = likelySignedIn && orgId !== null;
  const org = useQuery({ ...orgQuery(orgId ?? ''), enabled });
  const member = useQuery({ ...memberQuery(orgId ?? ''), enabled });
  const failure = org.error ?? member.error;

  const forget = useCallback(() => {
    writeStored(storageKeys.currentOrg, null);
    setOrgId(null);
  }, []);

  useEffect(() => {
    // A 401 means the session ended, not that the organization is gone: keep the choice.
    if (!enabled || !failure || (failure instanceof ApiError && failure.status === 401)) return;
    notifyFailure('get current org', failure);
    forget();
    navigate('/orgs', { replace: true });
  }, [enabled, failure, forget, navigate]);

  const select = useCallback(
    async (id: string) => {
      try {
        await Promise.all([client.fetchQuery(orgQuery(id)), client.fetchQuery(memberQuery(id))]);
        writeStored(storageKeys.currentOrg, id);
        setOrgId(id);
        navigate('/');
      } catch (error) {
        notifyFailure('select org', error);
      }
    },
    [client, navigate],
  );

  const leave = useCallback(() => {
    forget();
    navigate('/orgs');
  }, [forget, navigate]);

  const value = useMemo<CurrentOrgState>(() => {
    const current =
      enabled && org.data && member.data
        ? { org: org.data, member: member.data, isAdminOrOwner: member.data.admin || member.data.owner }
        : null;
    return { current, loading: enabled && !failure && !current, select, leave };
  }, [enabled, org.data, member.data, failure, select, leave]);

  return <CurrentOrgContext.Provider value={value}>{children}</CurrentOrgContext.Provider>;
}

export function useCurrentOrgState(): CurrentOrgState {
  const state = useContext(CurrentOrgContext);
  if (!state) throw new Error('useCurrentOrgState needs a CurrentOrgProvider');
  return state;
}

/** The current organization, on pages the access rules only show when there is one. */
export function useCurrentOrg(): CurrentOrg {
  const { current } = useCurrentOrgState();
  if (!current) throw new Error('useCurrentOrg needs a current organization');
  return current;
}
