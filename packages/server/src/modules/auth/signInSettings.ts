import { SIGN_IN_PROVIDERS } from '@wharf/contract';
import { z } from 'zod';
import type { CodeHostKind, CodeHostSettings, OidcSettings, OrgCreators, SignInSettings } from '../../config/types.ts';

const list = z
  .string()
  .transform((value) => value.split(/[\s,]+/).filter(Boolean))
  .optional();
const url = z.url({ error: 'must be a URL such as https://git.example.com' }).optional();

/** The sign-in variables; README.md documents the same list. */
export const signInEnvironment = z.object({
  WHARF_PASSWORD_SIGN_IN: z.enum(['on', 'off'], { error: 'must be on or off' }).default('on'),
  WHARF_GITHUB_CLIENT_ID: z.string().optional(),
  WHARF_GITHUB_CLIENT_SECRET: z.string().optional(),
  WHARF_GITHUB_URL: url,
  WHARF_GITHUB_ORGS: list,
  WHARF_GITLAB_CLIENT_ID: z.string().optional(),
  WHARF_GITLAB_CLIENT_SECRET: z.string().optional(),
  WHARF_GITLAB_URL: url,
  WHARF_GITLAB_GROUPS: list,
  WHARF_GITEA_CLIENT_ID: z.string().optional(),
  WHARF_GITEA_CLIENT_SECRET: z.string().optional(),
  WHARF_GITEA_URL: url,
  WHARF_GITEA_ORGS: list,
  WHARF_OIDC_ISSUER: z.url({ error: 'must be the issuer URL of an OpenID Connect provider' }).optional(),
  WHARF_OIDC_CLIENT_ID: z.string().optional(),
  WHARF_OIDC_CLIENT_SECRET: z.string().optional(),
  WHARF_OIDC_SCOPES: list,
  WHARF_OIDC_NAME: z.string().max(40, 'must be at most 40 characters').optional(),
  WHARF_OIDC_GROUPS_CLAIM: z.string().optional(),
  WHARF_OIDC_ALLOWED_GROUPS: list,
  WHARF_ORG_CREATORS: z.string().optional(),
});
type SignInEnvironment = z.infer<typeof signInEnvironment>;

const DEFAULT_BASE_URLS: Record<CodeHostKind, string | null> = {
  github: 'https://github.com',
  gitlab: 'https://gitlab.com',
  gitea: null,
};
const GROUP_VARIABLES = {
  github: 'WHARF_GITHUB_ORGS',
  gitlab: 'WHARF_GITLAB_GROUPS',
  gitea: 'WHARF_GITEA_ORGS',
} as const;

/** Turns the sign-in variables into settings; each problem names its variable. */
export function signInSettings(e: SignInEnvironment): { settings: SignInSettings; problems: string[] } {
  const problems: string[] = [];
  const codeHosts: SignInSettings['codeHosts'] = {};
  for (const kind of ['github', 'gitlab', 'gitea'] as const) {
    const settings = codeHostSettings(e, kind, problems);
    if (settings) codeHosts[kind] = settings;
  }
  const settings = {
    passwords: e.WHARF_PASSWORD_SIGN_IN === 'on',
    codeHosts,
    oidc: oidcSettings(e, problems),
    orgCreators: orgCreators(e.WHARF_ORG_CREATORS, problems),
  };
  return { settings, problems };
}

function codeHostSettings(e: SignInEnvironment, kind: CodeHostKind, problems: string[]): CodeHostSettings | null {
  const prefix = `WHARF_${kind.toUpperCase()}` as 'WHARF_GITHUB' | 'WHARF_GITLAB' | 'WHARF_GITEA';
  const clientId = e[`${prefix}_CLIENT_ID`];
  const clientSecret = e[`${prefix}_CLIENT_SECRET`];
  const baseUrl = e[`${prefix}_URL`] ?? DEFAULT_BASE_URLS[kind];
  if (!clientId && !clientSecret) {
    if (e[`${prefix}_URL`] || e[GROUP_VARIABLES[kind]])
      problems.push(`${prefix}_CLIENT_ID and ${prefix}_CLIENT_SECRET must be set to sign in with ${kind}`);
    return null;
  }
  if (!clientId || !clientSecret) {
    problems.push(`${prefix}_CLIENT_ID and ${prefix}_CLIENT_SECRET must both be set`);
    return null;
  }
  if (!baseUrl) {
    problems.push(`${prefix}_URL must name the server people sign in to, such as https://codeberg.org`);
    return null;
  }
  return {
    kind,
    clientId,
    clientSecret,
    baseUrl: new URL(baseUrl),
    allowedGroups: (e[GROUP_VARIABLES[kind]] ?? []).map((group) => group.toLowerCase()),
  };
}

function oidcSettings(e: SignInEnvironment, problems: string[]): OidcSettings | null {
  const { WHARF_OIDC_ISSUER: issuer, WHARF_OIDC_CLIENT_ID: clientId, WHARF_OIDC_CLIENT_SECRET: clientSecret } = e;
  if (!issuer && !clientId && !clientSecret) return null;
  if (!issuer || !clientId || !clientSecret) {
    problems.push('WHARF_OIDC_ISSUER, WHARF_OIDC_CLIENT_ID and WHARF_OIDC_CLIENT_SECRET must all be set');
    return null;
  }
  const scopes = e.WHARF_OIDC_SCOPES ?? ['openid', 'profile', 'email'];
  if (!scopes.includes('openid')) problems.push('WHARF_OIDC_SCOPES must include openid');
  return {
    issuer: new URL(issuer),
    clientId,
    clientSecret,
    scopes,
    name: e.WHARF_OIDC_NAME ?? 'single sign-on',
    groupsClaim: e.WHARF_OIDC_GROUPS_CLAIM ?? 'groups',
    allowedGroups: (e.WHARF_OIDC_ALLOWED_GROUPS ?? []).map((group) => group.toLowerCase()),
  };
}

const CREATOR_ENTRY = /^(user|group):([a-z-]+):(.+)$/;

/**
 * `WHARF_ORG_CREATORS`: `*` (the default) lets everybody signed in create organizations; otherwise a
 * comma list of `user:{provider}:{login}` and `group:{provider}:{group}` entries, such as
 * `user:in-memory:admin, group:github:acme, group:oidc:platform-team`.
 */
function orgCreators(value: string | undefined, problems: string[]): OrgCreators {
  if (value === undefined || value.trim() === '*') return { everyone: true };
  const creators: OrgCreators = { everyone: false, users: [], groups: [] };
  for (const entry of value.split(/[\s,]+/).filter(Boolean)) {
    const match = CREATOR_ENTRY.exec(entry);
    const provider = match?.[2];
    if (!match || !provider || !['in-memory', ...SIGN_IN_PROVIDERS].includes(provider)) {
      problems.push(
        `WHARF_ORG_CREATORS entry "${entry.slice(0, 60)}" must be user:{provider}:{login} or group:{provider}:{group}, the provider one of in-memory, ${SIGN_IN_PROVIDERS.join(', ')}`,
      );
      continue;
    }
    const name = match[3]!.toLowerCase();
    if (match[1] === 'user') creators.users.push({ provider, login: name });
    else creators.groups.push({ provider, group: name });
  }
  return creators;
}
