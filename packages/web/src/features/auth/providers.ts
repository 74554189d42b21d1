import { type Icon, IconBrandBitbucket, IconBrandGithub, IconBrandGitlab, IconFingerprint } from '@tabler/icons-react';

/** The sign-in methods other than the in-memory form: full-page links to the server's OAuth flows. */
export const providers: Record<string, { label: string; icon: Icon }> = {
  github: { label: 'GitHub', icon: IconBrandGithub },
  gitlab: { label: 'GitLab', icon: IconBrandGitlab },
  bitbucket: { label: 'Bitbucket', icon: IconBrandBitbucket },
  oidc: { label: 'single sign-on', icon: IconFingerprint },
};

/** spec.md §2: each provider button is a full-page link to /auth/{provider}. */
export function providerSignInUrl(provider: string) {
  return `/auth/${encodeURIComponent(provider)}`;
}
