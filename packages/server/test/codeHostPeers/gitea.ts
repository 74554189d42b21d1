import { giteaList } from './http.ts';
import { avatarOf } from './people.ts';
import { giteaRepositoryRoutes } from './repositories.ts';
import type { Answer, ApiCall, Dialect, TokenRefusal } from './types.ts';

/** Gitea and Forgejo answer every refusal of the token endpoint with 400. */
const refusals: Record<TokenRefusal, { error: string; error_description: string }> = {
  unsupported_grant_type: {
    error: 'unsupported_grant_type',
    error_description: 'Only refresh_token or authorization_code grant type is supported',
  },
  invalid_request: { error: 'unauthorized_client', error_description: 'failed PKCE code challenge' },
  invalid_client: { error: 'unauthorized_client', error_description: 'invalid client secret' },
  bad_code: { error: 'unauthorized_client', error_description: 'client is not authorized' },
  reused_code: { error: 'invalid_grant', error_description: 'cannot proceed your request' },
  redirect_mismatch: { error: 'unauthorized_client', error_description: 'unexpected redirect URI' },
  bad_verifier: { error: 'unauthorized_client', error_description: 'failed PKCE code challenge' },
};

function user(call: ApiCall): Answer {
  const { user: person, base } = call;
  return {
    status: 200,
    body: {
      id: person.id,
      login: person.login,
      login_name: '',
      username: person.login,
      full_name: person.name ?? '',
      email: person.email ?? '',
      avatar_url: avatarOf(person, base),
      html_url: `${base}/${person.login}`,
      language: '',
      is_admin: false,
      active: true,
      prohibit_login: false,
      visibility: 'public',
      created: '2020-01-01T00:00:00Z',
    },
  };
}

function orgs(call: ApiCall): Answer {
  const all = call.user.orgs.map((name) => ({
    id: call.orgId(name),
    name,
    username: name,
    full_name: '',
    email: '',
    avatar_url: `${call.base}/avatars/org-${call.orgId(name)}`,
    description: '',
    website: '',
    location: '',
    visibility: 'public',
    repo_admin_change_team_access: false,
  }));
  return giteaList(call, all, '/user/orgs');
}

export const gitea: Dialect = {
  provider: 'Gitea',
  apiPrefix: '/api/v1',
  authorizePath: '/login/oauth/authorize',
  tokenPath: '/login/oauth/access_token',
  deniedDescription: 'The resource owner denied the request.',
  tokenIssued: (grant) => ({
    status: 200,
    body: {
      access_token: grant.accessToken,
      token_type: 'bearer',
      expires_in: 3600,
      refresh_token: grant.refreshToken,
    },
  }),
  tokenRefused: (reason) => ({ status: 400, body: refusals[reason] }),
  badCredentials: { status: 401, body: { message: 'token is required' } },
  api: { 'GET /user': user, 'GET /user/orgs': orgs },
  repositoryRoutes: giteaRepositoryRoutes,
};
