import { linkHeader, pageOf, queryNumber } from './http.ts';
import { avatarOf } from './people.ts';
import { gitlabRepositoryRoutes } from './repositories.ts';
import type { Answer, ApiCall, Dialect, TokenRefusal } from './types.ts';

const INVALID_GRANT = {
  status: 400,
  error: 'invalid_grant',
  error_description:
    'The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.',
};

const refusals: Record<TokenRefusal, { status: number; error: string; error_description: string }> = {
  unsupported_grant_type: {
    status: 400,
    error: 'unsupported_grant_type',
    error_description: 'The authorization grant type is not supported by the authorization server.',
  },
  invalid_request: {
    status: 400,
    error: 'invalid_request',
    error_description: 'Missing required parameter: code_verifier.',
  },
  invalid_client: {
    status: 401,
    error: 'invalid_client',
    error_description:
      'Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.',
  },
  bad_code: INVALID_GRANT,
  reused_code: INVALID_GRANT,
  redirect_mismatch: INVALID_GRANT,
  bad_verifier: INVALID_GRANT,
};

/** GitLab refuses a route the token's scopes do not cover with 403, naming the scopes that would. */
function insufficientScope(...covering: string[]): Answer {
  return {
    status: 403,
    body: {
      error: 'insufficient_scope',
      error_description: 'The request requires higher privileges than provided by the access token.',
      scope: covering.join(' '),
    },
  };
}

const hasScope = (call: ApiCall, ...wanted: string[]) => wanted.some((scope) => call.scopes.includes(scope));

function user(call: ApiCall): Answer {
  if (!hasScope(call, 'read_user', 'read_api', 'api')) return insufficientScope('api', 'read_api', 'read_user');
  const { user: person, base } = call;
  return {
    status: 200,
    body: {
      id: person.id,
      username: person.login,
      name: person.name ?? person.login,
      state: 'active',
      locked: false,
      avatar_url: avatarOf(person, base),
      web_url: `${base}/${person.login}`,
      created_at: '2020-01-01T00:00:00.000Z',
      bio: '',
      public_email: null,
      email: person.email,
      is_admin: false,
    },
  };
}

function groups(call: ApiCall): Answer {
  if (!hasScope(call, 'read_api', 'api')) return insufficientScope('api', 'read_api');
  const page = queryNumber(call.query, 'page', 1);
  const perPage = queryNumber(call.query, 'per_page', 20, 100);
  const all = call.user.orgs.map((path) => ({
    id: call.orgId(path),
    web_url: `${call.base}/groups/${path}`,
    name: path,
    path,
    description: '',
    visibility: 'private',
    full_name: path,
    full_path: path,
    parent_id: null,
    avatar_url: null,
  }));
  const { items, pages } = pageOf(all, page, perPage);
  return {
    status: 200,
    body: items,
    headers: {
      'x-page': String(page),
      'x-per-page': String(perPage),
      'x-total': String(all.length),
      'x-total-pages': String(pages),
      'x-next-page': page < pages ? String(page + 1) : '',
      'x-prev-page': page > 1 ? String(page - 1) : '',
      ...linkHeader(`${call.base}/api/v4/groups`, call.query, page, pages),
    },
  };
}

export const gitlab: Dialect = {
  provider: 'GitLab',
  apiPrefix: '/api/v4',
  authorizePath: '/oauth/authorize',
  tokenPath: '/oauth/token',
  deniedDescription: 'The resource owner or authorization server denied the request.',
  tokenIssued: (grant) => ({
    status: 200,
    body: {
      access_token: grant.accessToken,
      token_type: 'Bearer',
      expires_in: 7200,
      refresh_token: grant.refreshToken,
      scope: grant.scopes.join(' '),
      created_at: Math.floor(grant.createdAt.getTime() / 1000),
    },
  }),
  tokenRefused(reason) {
    const { status, ...body } = refusals[reason];
    return { status, body };
  },
  badCredentials: { status: 401, body: { message: '401 Unauthorized' } },
  api: { 'GET /user': user, 'GET /groups': groups },
  repositoryRoutes: gitlabRepositoryRoutes,
};
