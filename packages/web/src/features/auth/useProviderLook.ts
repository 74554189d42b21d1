import { useSystemEnv } from '../../lib/systemEnv.ts';
import { providerLook } from './providers.ts';

/** providerLook with the OpenID Connect provider's name from the installation's environment. */
export function useProviderLook() {
  const oidcName = useSystemEnv().data?.signIn.oidcName ?? null;
  return (provider: string) => providerLook(provider, oidcName);
}
