import { useQuery } from '@tanstack/react-query';
import { api } from '@wharf/contract';
import { apiQuery } from './api.ts';

/** Asked once per page load: an installation's settings change only with a restart. */
export const systemEnvQuery: ReturnType<typeof apiQuery<typeof api.getSystemEnv>> & { staleTime: number } = {
  ...apiQuery(api.getSystemEnv),
  staleTime: Number.POSITIVE_INFINITY,
};

/** What the console needs to know of this installation (GET /system/env). */
export function useSystemEnv() {
  return useQuery(systemEnvQuery);
}

export function useSystemInfo() {
  return useQuery({ ...apiQuery(api.getSystemInfo), staleTime: Number.POSITIVE_INFINITY });
}
