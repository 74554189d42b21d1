import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type User } from '@wharf/contract';
import { ApiError, call, keyOf } from './api.ts';
import { notifyFailure } from './notify.ts';
import { sessionCookieAtLoad } from './sessionCookie.ts';
import { storageKeys, writeStored } from './storage.ts';

/** Only the first answer can rely on the page's word: a sign-in sets the cookie later. */
let signedOutAtLoad = sessionCookieAtLoad === 'absent';

/** The signed-in user, or null when signed out (the server answers 401). */
export const userQuery = queryOptions({
  queryKey: keyOf(api.getUser),
  queryFn: async () => {
    if (signedOutAtLoad) {
      signedOutAtLoad = false;
      return null;
    }
    try {
      return await call(api.getUser);
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return null;
      throw error;
    }
  },
  staleTime: Number.POSITIVE_INFINITY,
});

export function useUser() {
  return useQuery(userQuery);
}

/** Ends the session, then reloads the console at '/' (spec.md §4). */
export async function signOut() {
  try {
    await call(api.signOut);
    writeStored(storageKeys.currentOrg, null);
    window.location.assign('/');
  } catch (error) {
    notifyFailure('sign out', error);
  }
}

export function useSignedInUser() {
  const user = useUser().data;
  if (!user) throw new Error('useSignedInUser needs a signed-in user');
  return user;
}

export function useSetUser() {
  const client = useQueryClient();
  return (user: User | null) => client.setQueryData(userQuery.queryKey, user);
}
