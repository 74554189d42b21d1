import type { SignInSettings } from '../../../config/types.ts';
import type { PartsOf } from '../../../features/parts.ts';
import { type OutsideFetch, outsideFetch } from '../../../outbound/outsideServices.ts';
import { codeHostProvider } from './codeHosts.ts';
import { oidcProvider } from './oidc.ts';
import type { SignInProvider } from './provider.ts';

/** The providers this installation is configured for, by the name in their paths (/auth/{id}). */
function signInProviders(settings: SignInSettings, fetch: OutsideFetch): Map<string, SignInProvider> {
  const groupsNeeded = (id: string) =>
    !settings.orgCreators.everyone && settings.orgCreators.groups.some((group) => group.provider === id);
  const providers = new Map<string, SignInProvider>();
  for (const codeHost of Object.values(settings.codeHosts))
    providers.set(codeHost.kind, codeHostProvider(codeHost, groupsNeeded(codeHost.kind), fetch));
  if (settings.oidc) providers.set('oidc', oidcProvider(settings.oidc, groupsNeeded('oidc'), fetch));
  return providers;
}

/** The providers, calling out through a fetch of their own (the operator's CAs count) closed with the server. */
export function signInProvidersOf(parts: PartsOf<'config' | 'fastify'>) {
  const outside = outsideFetch(parts.config.extraCaCerts);
  parts.fastify.addHook('onClose', () => outside.close());
  return signInProviders(parts.config.signIn, outside.fetch);
}

/** What GET /auth/methods lists, in the order of the sign-in screen. */
export function signInMethods(settings: SignInSettings, passwordLogins: boolean): string[] {
  const methods: string[] = Object.keys(settings.codeHosts);
  if (settings.oidc) methods.push('oidc');
  if (passwordLogins) methods.push('in-memory');
  return methods;
}
