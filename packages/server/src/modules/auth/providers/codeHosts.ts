import { CodeChallengeMethod, OAuth2Client } from 'arctic';
import type { CodeHostKind, CodeHostSettings } from '../../../config/types.ts';
import type { OutsideFetch } from '../../../outbound/outsideServices.ts';
import type { ProviderProfile } from '../identities.ts';
import { type FlowSecrets, fetchProviderJson, type SignInProvider, SignInRefusal } from './provider.ts';
import { REPOSITORY_DIALECTS, repositoryApiCall } from './repositoryApi.ts';
import { requestTokens } from './tokenEndpoint.ts';

type ApiGet = <T>(path: string) => Promise<T>;
type Person = Omit<ProviderProfile, 'provider' | 'groups'>;

/** Where a code-hosting provider keeps its OAuth endpoints and its API, and how it names a person. */
interface CodeHostApi {
  label: string;
  authorizePath: string;
  tokenPath: string;
  apiBase(baseUrl: URL): URL;
  scopes(withGroups: boolean): string[];
  person(get: ApiGet): Promise<Person>;
  groups(get: ApiGet): Promise<string[]>;
}

const PAGE_LIMIT = 10;

/** Every page of a list, `?{size param}&page=N`, until a short page (at most PAGE_LIMIT pages). */
async function allPages<T>(get: ApiGet, pathOfPage: (page: number) => string, pageSize: number): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; page <= PAGE_LIMIT; page++) {
    const batch = await get<T[]>(pathOfPage(page));
    items.push(...batch);
    if (batch.length < pageSize) break;
  }
  return items;
}

interface GithubUser {
  id: number;
  login: string;
  name: string | null;
  email: string | null;
  avatar_url: string | null;
}

const github: CodeHostApi = {
  label: 'GitHub',
  authorizePath: 'login/oauth/authorize',
  tokenPath: 'login/oauth/access_token',
  // github.com's API has a host of its own; GitHub Enterprise Server serves it under /api/v3.
  apiBase: (base) => (base.hostname === 'github.com' ? new URL('https://api.github.com/') : under(base, 'api/v3/')),
  scopes: (withGroups) => ['read:user', 'user:email', ...(withGroups ? ['read:org'] : [])],
  async person(get) {
    const user = await get<GithubUser>('user');
    // The profile's email is only the public one; the primary verified address needs user:email.
    const email =
      user.email ??
      (await get<{ email: string; primary: boolean; verified: boolean }[]>('user/emails')).find(
        (entry) => entry.primary && entry.verified,
      )?.email ??
      null;
    return personOf(user.id, user.login, user.name, email, user.avatar_url);
  },
  groups: async (get) =>
    (await allPages<{ login: string }>(get, (page) => `user/orgs?per_page=100&page=${page}`, 100)).map(
      (org) => org.login,
    ),
};

const gitlab: CodeHostApi = {
  label: 'GitLab',
  authorizePath: 'oauth/authorize',
  tokenPath: 'oauth/token',
  apiBase: (base) => under(base, 'api/v4/'),
  // Listing groups needs read_api; it is asked for only when groups decide something.
  scopes: (withGroups) => ['read_user', ...(withGroups ? ['read_api'] : [])],
  async person(get) {
    const user = await get<{ id: number; username: string; name: string; email: string | null; avatar_url: string }>(
      'user',
    );
    return personOf(user.id, user.username, user.name, user.email, user.avatar_url);
  },
  groups: async (get) =>
    (
      await allPages<{ full_path: string }>(get, (page) => `groups?min_access_level=10&per_page=100&page=${page}`, 100)
    ).map((group) => group.full_path),
};

const gitea: CodeHostApi = {
  label: 'Gitea',
  authorizePath: 'login/oauth/authorize',
  tokenPath: 'login/oauth/access_token',
  apiBase: (base) => under(base, 'api/v1/'),
  scopes: (withGroups) => ['read:user', ...(withGroups ? ['read:organization'] : [])],
  async person(get) {
    const user = await get<{ id: number; login: string; full_name: string; email: string; avatar_url: string }>('user');
    return personOf(user.id, user.login, user.full_name, user.email, user.avatar_url);
  },
  groups: async (get) =>
    (await allPages<{ username: string }>(get, (page) => `user/orgs?limit=50&page=${page}`, 50)).map(
      (org) => org.username,
    ),
};

const CODE_HOSTS: Record<CodeHostKind, CodeHostApi> = { github, gitlab, gitea };

function personOf(id: number, login: string, name: string | null, email: string | null, avatar: string | null): Person {
  return { subject: String(id), login, name: name?.trim() || login, email: email || null, avatarUrl: avatar || null };
}

/** A path below a base URL that may itself have a path (a GitLab served under /gitlab). */
function under(base: URL, path: string) {
  return new URL(path, base.href.endsWith('/') ? base : `${base.href}/`);
}

/**
 * GitHub, GitLab or Gitea/Forgejo: the authorization code flow with state and PKCE (arctic), then
 * the person and, when groups decide who may sign in or create organizations, their organizations.
 */
export function codeHostProvider(
  settings: CodeHostSettings,
  groupsNeeded: boolean,
  fetch: OutsideFetch,
): SignInProvider {
  const host = CODE_HOSTS[settings.kind];
  const apiBase = host.apiBase(settings.baseUrl);
  const withGroups = groupsNeeded || settings.allowedGroups.length > 0;
  const clientFor = (flow: FlowSecrets) => new OAuth2Client(settings.clientId, settings.clientSecret, flow.redirectUri);
  const repositories = REPOSITORY_DIALECTS[settings.kind];
  const tokenEndpoint = under(settings.baseUrl, host.tokenPath).href;

  return {
    id: settings.kind,
    label: host.label,
    allowedGroups: settings.allowedGroups,
    repositories: {
      url: settings.baseUrl.href.replace(/\/+$/, ''),
      dialect: repositories,
      api: (token) => repositoryApiCall(fetch, apiBase, token),
      refresh: (refreshToken) =>
        requestTokens(fetch, settings, tokenEndpoint, { grant_type: 'refresh_token', refresh_token: refreshToken }),
    },
    async authorizationUrl(flow, access) {
      const endpoint = under(settings.baseUrl, host.authorizePath).href;
      const scopes = [...host.scopes(withGroups), ...(access === 'repositories' ? repositories.scopes : [])];
      return clientFor(flow).createAuthorizationURLWithPKCE(
        endpoint,
        flow.state,
        CodeChallengeMethod.S256,
        flow.codeVerifier,
        scopes,
      );
    },
    async profileFrom(callbackUrl, flow) {
      const code = callbackUrl.searchParams.get('code');
      if (!code) throw new SignInRefusal('SIGN_IN_FAILED', 'the callback carries no code');
      const tokens = await requestTokens(fetch, settings, tokenEndpoint, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: flow.redirectUri,
        code_verifier: flow.codeVerifier,
      });
      const get: ApiGet = (path) =>
        fetchProviderJson(fetch, new URL(path, apiBase), {
          headers: { authorization: `Bearer ${tokens.accessToken}`, accept: 'application/json', 'user-agent': 'Wharf' },
        });
      const person = await host.person(get);
      const groups = withGroups ? await host.groups(get) : [];
      return {
        profile: { provider: settings.kind, ...person, groups: groups.map((group) => group.toLowerCase()) },
        tokens,
      };
    },
  };
}
