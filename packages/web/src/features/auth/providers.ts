import {
  type Icon,
  IconBrandGit,
  IconBrandGithub,
  IconBrandGitlab,
  IconFingerprint,
  IconPassword,
  IconUserCircle,
} from '@tabler/icons-react';
import type { SignInProvider } from '@wharf/contract';

/** The sign-in methods other than the in-memory form: full-page links to the server's flows. */
export const providers: Record<SignInProvider, { label: string; icon: Icon }> = {
  github: { label: 'GitHub', icon: IconBrandGithub },
  gitlab: { label: 'GitLab', icon: IconBrandGitlab },
  gitea: { label: 'Gitea', icon: IconBrandGit },
  oidc: { label: 'single sign-on', icon: IconFingerprint },
};

/** The in-memory method as an account: what a user signs in with on the form. */
const inMemory = { label: 'Password', icon: IconPassword };

export function isSignInProvider(method: string): method is SignInProvider {
  return Object.hasOwn(providers, method);
}

/**
 * How the console names and draws a provider. The OpenID Connect provider goes by the name its
 * operator gave it (WHARF_OIDC_NAME), once the console knows it.
 */
export function providerLook(provider: string, oidcName: string | null = null): { label: string; icon: Icon } {
  if (provider === 'in-memory') return inMemory;
  if (provider === 'oidc' && oidcName) return { ...providers.oidc, label: oidcName };
  if (isSignInProvider(provider)) return providers[provider];
  return { label: provider, icon: IconUserCircle };
}

/** spec.md §2: each provider button is a full-page link to /auth/{provider}. */
export function providerSignInUrl(provider: string) {
  return `/auth/${encodeURIComponent(provider)}`;
}

/** Where a signed-in user's form posts to connect one more account of a provider. */
export function providerLinkUrl(provider: string) {
  return `/auth/${encodeURIComponent(provider)}/link`;
}
