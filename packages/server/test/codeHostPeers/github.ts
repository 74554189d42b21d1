import { linkHeader, pageOf, queryNumber } from './http.ts';
import { avatarOf, emailsOf } from './people.ts';
import { githubRepositoryRoutes } from './repositories.ts';
import type { Answer, ApiCall, Dialect, Grant, TokenRefusal } from './types.ts';

const TROUBLESHOOTING =
  'https://docs.github.com/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors';

const refusals: Record<TokenRefusal, { error: string; error_description: string; anchor: string }> = {
  unsupported_grant_type: {
    error: 'unsupported_grant_type',
    error_description: 'The grant type is not supported.',
    anchor: '',
  },
  invalid_client: {
    error: 'incorrect_client_credentials',
    error_description: 'The client_id and/or client_secret passed are incorrect.',
    anchor: '#incorrect-client-credentials',
  },
  redirect_mismatch: {
    error: 'redirect_uri_mismatch',
    error_description: 'The redirect_uri MUST match the registered callback URL for this application.',
    anchor: '#redirect-uri-mismatch2',
  },
  ...Object.fromEntries(
    (['bad_code', 'reused_code', 'bad_verifier', 'invalid_request'] as const).map((reason) => [
      reason,
      {
        error: 'bad_verification_code',
        error_description: 'The code passed is incorrect or expired.',
        anchor: '#bad-verification-code',
      },
    ]),
  ),
} as Record<TokenRefusal, { error: string; error_description: string; anchor: string }>;

/** GitHub answers the token endpoint as a form unless asked for JSON, and always with 200, even to refuse. */
function tokenAnswer(fields: Record<string, string>, accept: string): Answer {
  if (accept.includes('application/json')) return { status: 200, body: fields };
  return {
    status: 200,
    body: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
  };
}

/** Every API answer tells which scopes the token carries, as GitHub's `X-OAuth-Scopes` does. */
function api(call: ApiCall, body: unknown, headers: Record<string, string> = {}): Answer {
  return { status: 200, body, headers: { 'x-oauth-scopes': call.scopes.join(', '), ...headers } };
}

const hasScope = (call: ApiCall, ...wanted: string[]) => wanted.some((scope) => call.scopes.includes(scope));

function user(call: ApiCall): Answer {
  const { user: person, base } = call;
  return api(call, {
    login: person.login,
    id: person.id,
    node_id: Buffer.from(`User${person.id}`).toString('base64'),
    avatar_url: avatarOf(person, base),
    url: `${base}/api/v3/users/${person.login}`,
    html_url: `${base}/${person.login}`,
    type: 'User',
    site_admin: false,
    name: person.name,
    company: null,
    blog: '',
    location: null,
    email: person.email,
    bio: null,
    public_repos: 0,
    followers: 0,
    following: 0,
    created_at: '2020-01-01T00:00:00Z',
    updated_at: '2020-01-01T00:00:00Z',
  });
}

function emails(call: ApiCall): Answer {
  // Without user:email GitHub hides the endpoint rather than refusing it.
  if (!hasScope(call, 'user:email', 'user'))
    return {
      status: 404,
      body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' },
    };
  return api(
    call,
    emailsOf(call.user).map((email) => ({ ...email, visibility: email.visibility ?? null })),
  );
}

function orgs(call: ApiCall): Answer {
  const page = queryNumber(call.query, 'page', 1);
  const all = call.user.orgs.map((login) => {
    const id = call.orgId(login);
    const url = `${call.base}/api/v3/orgs/${login}`;
    return {
      login,
      id,
      node_id: Buffer.from(`Organization${id}`).toString('base64'),
      url,
      repos_url: `${url}/repos`,
      events_url: `${url}/events`,
      hooks_url: `${url}/hooks`,
      issues_url: `${url}/issues`,
      members_url: `${url}/members{/member}`,
      public_members_url: `${url}/public_members{/member}`,
      avatar_url: `${call.base}/avatars/${id}`,
      description: null,
    };
  });
  const { items, pages } = pageOf(all, page, queryNumber(call.query, 'per_page', 30, 100));
  return api(call, items, linkHeader(`${call.base}/api/v3/user/orgs`, call.query, page, pages));
}

export const github: Dialect = {
  provider: 'GitHub',
  apiPrefix: '/api/v3',
  authorizePath: '/login/oauth/authorize',
  tokenPath: '/login/oauth/access_token',
  deniedDescription: 'The user has denied your application access.',
  tokenIssued: (grant: Grant, accept) =>
    tokenAnswer({ access_token: grant.accessToken, token_type: 'bearer', scope: grant.scopes.join(',') }, accept),
  tokenRefused(reason, accept) {
    const { error, error_description, anchor } = refusals[reason];
    return tokenAnswer({ error, error_description, error_uri: `${TROUBLESHOOTING}${anchor}` }, accept);
  },
  badCredentials: {
    status: 401,
    body: { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest', status: '401' },
  },
  api: { 'GET /user': user, 'GET /user/emails': emails, 'GET /user/orgs': orgs },
  repositoryRoutes: githubRepositoryRoutes,
};
