import { createHash, randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type CodeHostPeer, startGiteaPeer, startGithubPeer, startGitlabPeer } from './codeHostPeers.ts';

const CLIENT = { clientId: 'wharf-client', clientSecret: 'wharf-secret', redirectUri: 'http://127.0.0.1:1/callback' };
const ADA = { id: 101, login: 'ada', name: 'Ada Lovelace', email: 'ada@example.test', orgs: ['harbour', 'docks'] };

interface Refusal {
  status: number;
  error: string;
}

const providers = [
  {
    name: 'GitHub',
    start: startGithubPeer,
    authorizePath: '/login/oauth/authorize',
    tokenPath: '/login/oauth/access_token',
    scope: 'read:user user:email read:org',
    orgsPath: '/user/orgs?per_page=100&page=1',
    orgName: (org: Record<string, unknown>) => org.login,
    loginOf: (user: Record<string, unknown>) => user.login,
    refusals: {
      verifier: { status: 200, error: 'bad_verification_code' },
      expired: { status: 200, error: 'bad_verification_code' },
      reused: { status: 200, error: 'bad_verification_code' },
      secret: { status: 200, error: 'incorrect_client_credentials' },
      redirect: { status: 200, error: 'redirect_uri_mismatch' },
    },
  },
  {
    name: 'GitLab',
    start: startGitlabPeer,
    authorizePath: '/oauth/authorize',
    tokenPath: '/oauth/token',
    scope: 'read_user read_api',
    orgsPath: '/groups?min_access_level=10&per_page=100&page=1',
    orgName: (org: Record<string, unknown>) => org.full_path,
    loginOf: (user: Record<string, unknown>) => user.username,
    refusals: {
      verifier: { status: 400, error: 'invalid_grant' },
      expired: { status: 400, error: 'invalid_grant' },
      reused: { status: 400, error: 'invalid_grant' },
      secret: { status: 401, error: 'invalid_client' },
      redirect: { status: 400, error: 'invalid_grant' },
    },
  },
  {
    name: 'Gitea',
    start: startGiteaPeer,
    authorizePath: '/login/oauth/authorize',
    tokenPath: '/login/oauth/access_token',
    scope: '',
    orgsPath: '/user/orgs?limit=50&page=1',
    orgName: (org: Record<string, unknown>) => org.username,
    loginOf: (user: Record<string, unknown>) => user.login,
    refusals: {
      verifier: { status: 400, error: 'unauthorized_client' },
      expired: { status: 400, error: 'unauthorized_client' },
      reused: { status: 400, error: 'invalid_grant' },
      secret: { status: 400, error: 'unauthorized_client' },
      redirect: { status: 400, error: 'unauthorized_client' },
    },
  },
] as const;

type Provider = (typeof providers)[number];

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

function authorizeUrl(peer: CodeHostPeer, provider: Provider, challenge: string, query: Record<string, string> = {}) {
  const url = new URL(`${peer.url}${provider.authorizePath}`);
  const params = {
    response_type: 'code',
    client_id: CLIENT.clientId,
    redirect_uri: CLIENT.redirectUri,
    state: 'state-1',
    scope: provider.scope,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...query,
  };
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url;
}

/** The authorize step as a browser would take it, without following the redirect back to the client. */
async function authorize(
  peer: CodeHostPeer,
  provider: Provider,
  challenge: string,
  query: Record<string, string> = {},
) {
  return fetch(authorizeUrl(peer, provider, challenge, query), { redirect: 'manual' });
}

function redirectedTo(response: Response) {
  expect(response.status).toBe(302);
  return new URL(response.headers.get('location')!);
}

async function codeFor(peer: CodeHostPeer, provider: Provider, challenge: string, scope?: string) {
  const back = redirectedTo(await authorize(peer, provider, challenge, scope === undefined ? {} : { scope }));
  expect(back.searchParams.get('state')).toBe('state-1');
  return back.searchParams.get('code')!;
}

async function exchange(
  peer: CodeHostPeer,
  provider: Provider,
  input: { code: string; verifier: string; secret?: string; redirectUri?: string },
) {
  const basic = Buffer.from(`${CLIENT.clientId}:${input.secret ?? CLIENT.clientSecret}`).toString('base64');
  const response = await fetch(`${peer.url}${provider.tokenPath}`, {
    method: 'POST',
    headers: { authorization: `Basic ${basic}`, accept: 'application/json' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: input.code,
      redirect_uri: input.redirectUri ?? CLIENT.redirectUri,
      code_verifier: input.verifier,
      client_id: CLIENT.clientId,
    }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function signIn(peer: CodeHostPeer, provider: Provider, scope?: string) {
  const { verifier, challenge } = pkce();
  const token = await exchange(peer, provider, { code: await codeFor(peer, provider, challenge, scope), verifier });
  expect(token.status).toBe(200);
  return String(token.body.access_token);
}

async function apiGet<Body = Record<string, unknown>>(peer: CodeHostPeer, path: string, token: string) {
  const response = await fetch(`${peer.apiUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, body: (await response.json()) as Body };
}

describe.each(providers)('the $name peer', (provider) => {
  let peer: CodeHostPeer;
  beforeEach(async () => {
    peer = await provider.start(CLIENT);
    peer.addUser(ADA);
    peer.signInAs('ada');
  });
  afterEach(() => peer.close());

  it('lets a client sign in with PKCE and read the person and their organizations', async () => {
    const token = await signIn(peer, provider);
    const user = await apiGet(peer, '/user', token);
    expect(user.status).toBe(200);
    expect(provider.loginOf(user.body)).toBe('ada');
    expect(user.body).toMatchObject({ id: 101, email: 'ada@example.test' });
    const orgs = await apiGet<Record<string, unknown>[]>(peer, provider.orgsPath, token);
    expect(orgs.status).toBe(200);
    expect(orgs.body.map(provider.orgName)).toEqual(['harbour', 'docks']);
  });

  it('records what the client sent, the PKCE verifier included', async () => {
    await signIn(peer, provider);
    const tokenRequest = peer.requests.find((request) => request.path === provider.tokenPath)!;
    expect(new URLSearchParams(tokenRequest.body).get('code_verifier')).toMatch(/^[\w-]{43}$/);
    const authorizeRequest = peer.requests.find((request) => request.path === provider.authorizePath)!;
    expect(authorizeRequest.query.code_challenge_method).toBe('S256');
  });

  it('accepts the client secret in the body instead of Basic auth', async () => {
    const { verifier, challenge } = pkce();
    const code = await codeFor(peer, provider, challenge);
    const response = await fetch(`${peer.url}${provider.tokenPath}`, {
      method: 'POST',
      headers: { accept: 'application/json' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: CLIENT.redirectUri,
        code_verifier: verifier,
        client_id: CLIENT.clientId,
        client_secret: CLIENT.clientSecret,
      }),
    });
    expect(await response.json()).toHaveProperty('access_token');
  });

  const expectRefusal = (answer: { status: number; body: Record<string, unknown> }, refusal: Refusal) => {
    expect(answer.status).toBe(refusal.status);
    expect(answer.body).toMatchObject({ error: refusal.error });
    expect(answer.body).not.toHaveProperty('access_token');
  };

  it('refuses a verifier that does not match the challenge', async () => {
    const code = await codeFor(peer, provider, pkce().challenge);
    expectRefusal(await exchange(peer, provider, { code, verifier: pkce().verifier }), provider.refusals.verifier);
  });

  it('refuses a code presented a second time', async () => {
    const { verifier, challenge } = pkce();
    const code = await codeFor(peer, provider, challenge);
    expect((await exchange(peer, provider, { code, verifier })).status).toBe(200);
    expectRefusal(await exchange(peer, provider, { code, verifier }), provider.refusals.reused);
  });

  it('refuses a code older than a minute', async () => {
    const { verifier, challenge } = pkce();
    const code = await codeFor(peer, provider, challenge);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 61_000);
      expectRefusal(await exchange(peer, provider, { code, verifier }), provider.refusals.expired);
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses a wrong client secret', async () => {
    const { verifier, challenge } = pkce();
    const code = await codeFor(peer, provider, challenge);
    expectRefusal(await exchange(peer, provider, { code, verifier, secret: 'guess' }), provider.refusals.secret);
  });

  it('refuses a redirect_uri other than the registered one, at both ends', async () => {
    const { verifier, challenge } = pkce();
    const foreign = await authorize(peer, provider, challenge, { redirect_uri: 'http://127.0.0.1:1/elsewhere' });
    expect(foreign.status).toBe(400);
    expect(foreign.headers.get('location')).toBeNull();
    const code = await codeFor(peer, provider, challenge);
    const redirectUri = 'http://127.0.0.1:1/elsewhere';
    expectRefusal(await exchange(peer, provider, { code, verifier, redirectUri }), provider.refusals.redirect);
  });

  it('requires a S256 code challenge', async () => {
    const back = redirectedTo(await authorize(peer, provider, 'x', { code_challenge_method: 'plain' }));
    expect(back.searchParams.get('error')).toBe('invalid_request');
    expect(back.searchParams.get('code')).toBeNull();
  });

  it('sends the person back with access_denied when they refuse', async () => {
    peer.denyNext();
    const back = redirectedTo(await authorize(peer, provider, pkce().challenge));
    expect(back.origin + back.pathname).toBe(CLIENT.redirectUri);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('error_description')).toBeTruthy();
    expect(back.searchParams.get('state')).toBe('state-1');
    expect(await codeFor(peer, provider, pkce().challenge)).toBeTruthy();
  });

  it('asks on an "Authorize Wharf" page when it does not approve by itself', async () => {
    peer.setAutoApprove(false);
    const page = await authorize(peer, provider, pkce().challenge);
    const html = await page.text();
    expect(html).toContain('Authorize Wharf');
    const pending = /name="pending" value="([^"]+)"/.exec(html)![1]!;
    const approved = await fetch(`${peer.url}${provider.authorizePath}`, {
      method: 'POST',
      body: new URLSearchParams({ pending, decision: 'approve' }),
      redirect: 'manual',
    });
    expect(redirectedTo(approved).searchParams.get('code')).toBeTruthy();
  });

  it('refuses the API a token it did not issue', async () => {
    expect((await apiGet(peer, '/user', 'forged')).status).toBe(401);
  });
});

describe('the GitLab peer', () => {
  it('shows groups only to a token with the read_api scope', async () => {
    const peer = await startGitlabPeer(CLIENT);
    peer.addUser(ADA);
    peer.signInAs('ada');
    const token = await signIn(peer, providers[1], 'read_user');
    expect((await apiGet(peer, '/user', token)).status).toBe(200);
    const groups = await apiGet(peer, '/groups?min_access_level=10', token);
    expect(groups.status).toBe(403);
    expect(groups.body).toMatchObject({ error: 'insufficient_scope' });
    await peer.close();
  });
});

describe('the GitHub peer', () => {
  it('answers the token endpoint as a form unless asked for JSON, and lists emails', async () => {
    const peer = await startGithubPeer(CLIENT);
    peer.addUser({ ...ADA, email: null });
    peer.signInAs('ada');
    const { verifier, challenge } = pkce();
    const code = await codeFor(peer, providers[0], challenge);
    const response = await fetch(`${peer.url}/login/oauth/access_token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: CLIENT.redirectUri,
        code_verifier: verifier,
        client_id: CLIENT.clientId,
        client_secret: CLIENT.clientSecret,
      }),
    });
    const token = new URLSearchParams(await response.text());
    expect(token.get('token_type')).toBe('bearer');
    expect(token.get('scope')).toBe('read:user,user:email,read:org');
    const user = await fetch(`${peer.apiUrl}/user`, {
      headers: { authorization: `token ${token.get('access_token')}` },
    });
    expect(await user.json()).toMatchObject({ login: 'ada', email: null, name: 'Ada Lovelace' });
    await peer.close();
  });
});
