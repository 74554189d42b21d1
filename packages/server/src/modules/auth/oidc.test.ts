import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TestClient } from '../../../test/client.ts';
import { freePort, startTestServer, type TestServer } from '../../../test/harness.ts';
import { type OidcPeer, oidcEnv, startOidcPeer } from '../../../test/oidcPeer.ts';
import { finishAt, signInThrough, walkToCallback } from '../../../test/signInFlow.ts';

const ADA = { sub: 'ada-1', name: 'Ada Lovelace', preferred_username: 'ada', email: 'ada@example.test' };

describe('signing in through an OpenID Connect provider', () => {
  let peer: OidcPeer;
  let server: TestServer;

  beforeAll(async () => {
    peer = await startOidcPeer();
    server = await startTestServer({ withoutUsers: true, captureLog: true, env: oidcEnv(peer) });
  });
  afterAll(async () => {
    await server?.close();
    await peer?.close();
  });
  beforeEach(() => {
    peer.signInAs(ADA);
    peer.tamperIdToken(null);
    peer.breakSignatures(false);
  });

  it('lists the provider with its name, and makes no first admin when a provider is configured', async () => {
    const client = new TestClient(server.url);
    expect((await client.get('/auth/methods')).body).toEqual(['oidc']);
    expect((await client.get('/api/v1/system/env')).body.signIn).toEqual({ oidcName: 'Keycloak' });
  });

  it('sends the browser to the provider with state, nonce and an S256 PKCE challenge, and back signed in', async () => {
    const client = new TestClient(server.url);
    const { authorization, callback } = await walkToCallback(client, 'oidc');
    expect(authorization.origin).toBe(new URL(peer.issuer).origin);
    const asked = authorization.searchParams;
    expect(asked.get('redirect_uri')).toBe(`${server.url}/auth/oidc/callback`);
    expect(asked.get('code_challenge_method')).toBe('S256');
    expect(asked.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(asked.get('nonce')).toMatch(/^[\w-]{20,}$/);
    expect(asked.get('scope')).toBe('openid profile email');
    expect(callback.searchParams.get('state')).toBe(asked.get('state'));

    const landing = await finishAt(client, callback);
    expect(landing.pathname).toBe('/');
    const user = (await client.get('/api/v1/user')).body;
    expect(user).toMatchObject({
      name: 'Ada Lovelace',
      email: 'ada@example.test',
      provider: 'oidc',
      canCreateOrgs: true,
    });
    const identities = (await client.get('/api/v1/user/identities')).body;
    expect(identities).toEqual([
      expect.objectContaining({ provider: 'oidc', login: 'ada', email: 'ada@example.test', current: true }),
    ]);
  });

  it('knows the person again by subject, not by email, and refreshes what the provider says', async () => {
    const first = new TestClient(server.url);
    await signInThrough(first, 'oidc');
    peer.signInAs({ ...ADA, name: 'Ada King' });
    const again = new TestClient(server.url);
    await signInThrough(again, 'oidc');
    const [one, two] = [(await first.get('/api/v1/user')).body, (await again.get('/api/v1/user')).body];
    expect(two._id).toBe(one._id);
    expect((await again.get('/api/v1/user/identities')).body[0].name).toBe('Ada King');

    peer.signInAs({ ...ADA, sub: 'someone-else' });
    const sameEmail = new TestClient(server.url);
    await signInThrough(sameEmail, 'oidc');
    expect((await sameEmail.get('/api/v1/user')).body._id).not.toBe(one._id);
  });

  it('refuses a callback whose state is not the one this browser started, and opens no session', async () => {
    const client = new TestClient(server.url);
    const { callback } = await walkToCallback(client, 'oidc');
    callback.searchParams.set('state', 'forged-state-value');
    await expectRefused(client, callback, 'SIGN_IN_STATE_MISMATCH');

    // The real callback in another browser, which never started this flow, is refused too.
    const victim = new TestClient(server.url);
    const other = await walkToCallback(new TestClient(server.url), 'oidc');
    await expectRefused(victim, other.callback, 'SIGN_IN_STATE_MISMATCH');
  });

  it('refuses a replayed callback and a code replayed into a new flow', async () => {
    const client = new TestClient(server.url);
    const { callback } = await walkToCallback(client, 'oidc');
    const stateCookie = client.cookieHeader;
    expect((await finishAt(client, callback)).pathname).toBe('/');

    // The same callback again, even with the flow's cookie: the flow is spent.
    const replayer = new TestClient(server.url);
    await replayer.visit('/auth/oidc');
    const replay = new URL(callback);
    const replayCookie = stateCookie.replace(/^.*wharf_sign_in=([^;]+).*$/, '$1');
    const answer = await fetch(replay, { redirect: 'manual', headers: { cookie: `wharf_sign_in=${replayCookie}` } });
    expect(answer.headers.get('location')).toBe('/login?error=SIGN_IN_EXPIRED&provider=oidc');

    // The spent code with a fresh flow's state: the provider refuses it (its PKCE challenge is gone).
    const fresh = await walkToCallback(replayer, 'oidc');
    fresh.callback.searchParams.set('code', callback.searchParams.get('code')!);
    await expectRefused(replayer, fresh.callback, 'SIGN_IN_FAILED');
  });

  it.each([
    [
      'for another audience',
      '"aud" (audience)',
      (claims: Record<string, unknown>) => Object.assign(claims, { aud: 'another' }),
    ],
    [
      'that has expired',
      '"exp" (expiration time)',
      (claims: Record<string, unknown>) => {
        const past = Math.floor(Date.now() / 1000) - 3600;
        Object.assign(claims, { iat: past - 600, exp: past });
      },
    ],
    [
      'with another nonce',
      'ID Token "nonce"',
      (claims: Record<string, unknown>) => Object.assign(claims, { nonce: 'other' }),
    ],
    [
      'from another issuer',
      '"iss" (issuer)',
      (claims: Record<string, unknown>) => Object.assign(claims, { iss: 'https://x.test' }),
    ],
  ])('refuses an ID token %s', async (_, reason, change) => {
    peer.tamperIdToken(change);
    const client = new TestClient(server.url);
    const { callback } = await walkToCallback(client, 'oidc');
    await expectRefused(client, callback, 'SIGN_IN_FAILED');
    expect(lastRefusal()).toContain(reason);
  });

  it('refuses an ID token whose signature does not verify with the provider’s keys', async () => {
    peer.breakSignatures(true);
    const client = new TestClient(server.url);
    const { callback } = await walkToCallback(client, 'oidc');
    await expectRefused(client, callback, 'SIGN_IN_FAILED');
    expect(lastRefusal()).toContain('signature');
  });

  function lastRefusal() {
    const line = server.logLines.filter((logLine) => logLine.includes('Sign-in refused')).at(-1);
    return line ? (JSON.parse(line) as { detail: string }).detail : '';
  }

  it('says the sign-in was cancelled when the person declines at the provider', async () => {
    const client = new TestClient(server.url);
    const { callback } = await walkToCallback(client, 'oidc');
    const declined = new URL('/auth/oidc/callback', server.url);
    declined.search = new URLSearchParams({
      error: 'access_denied',
      error_description: 'The user declined',
      state: callback.searchParams.get('state')!,
    }).toString();
    await expectRefused(client, declined, 'SIGN_IN_CANCELLED');
  });

  it('sends an unknown provider back to /login', async () => {
    const answer = await new TestClient(server.url).visit('/auth/bitbucket');
    expect(answer.headers.get('location')).toBe('/login?error=SIGN_IN_METHOD_UNKNOWN&provider=bitbucket');
  });

  async function expectRefused(client: TestClient, callback: URL, code: string) {
    const landing = await finishAt(client, callback);
    expect(`${landing.pathname}${landing.search}`).toBe(`/login?error=${code}&provider=oidc`);
    expect(client.cookieHeader).not.toContain('wharf_session');
    expect((await client.get('/api/v1/user')).status).toBe(401);
  }
});

describe('who may sign in through OpenID Connect', () => {
  let peer: OidcPeer;
  let server: TestServer;

  beforeAll(async () => {
    peer = await startOidcPeer();
    server = await startTestServer({
      withoutUsers: true,
      env: oidcEnv(peer, {
        WHARF_OIDC_ALLOWED_GROUPS: 'wharf-users, Platform',
        WHARF_ORG_CREATORS: 'group:oidc:platform',
      }),
    });
  });
  afterAll(async () => {
    await server?.close();
    await peer?.close();
  });

  it('refuses a person in no allowed group, at every sign-in', async () => {
    peer.signInAs({ ...ADA, groups: ['accounting'] });
    const client = new TestClient(server.url);
    const landing = await signInThrough(client, 'oidc');
    expect(`${landing.pathname}${landing.search}`).toBe('/login?error=SIGN_IN_NOT_ALLOWED&provider=oidc');
    expect((await client.get('/api/v1/user')).status).toBe(401);
  });

  it('lets an allowed group in, read from userinfo when the ID token leaves it out, and lets only the creators group create organizations', async () => {
    peer.signInAs({ ...ADA, groups: ['wharf-users'] }, { groupsIn: 'userinfo' });
    const member = new TestClient(server.url);
    expect((await signInThrough(member, 'oidc')).pathname).toBe('/');
    expect((await member.get('/api/v1/user')).body.canCreateOrgs).toBe(false);
    const refused = await member.post('/api/v1/orgs', { name: 'acme' });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('ORG_CREATION_NOT_ALLOWED');
    // Refused before the input is looked at.
    expect((await member.post('/api/v1/orgs', { name: '' })).body.code).toBe('ORG_CREATION_NOT_ALLOWED');

    peer.signInAs({ sub: 'grace-1', name: 'Grace Hopper', groups: ['PLATFORM'] });
    const creator = new TestClient(server.url);
    expect((await signInThrough(creator, 'oidc')).pathname).toBe('/');
    expect((await creator.get('/api/v1/user')).body.canCreateOrgs).toBe(true);
    expect((await creator.post('/api/v1/orgs', { name: 'acme' })).status).toBe(200);
  });
});

describe('an OpenID Connect provider that cannot be reached', () => {
  it('sends the browser back to /login saying so', async () => {
    const closedPort = await freePort();
    const server = await startTestServer({
      withoutUsers: true,
      env: {
        WHARF_OIDC_ISSUER: `http://127.0.0.1:${closedPort}/realms/wharf`,
        WHARF_OIDC_CLIENT_ID: 'wharf',
        WHARF_OIDC_CLIENT_SECRET: 'secret',
      },
    });
    try {
      const answer = await new TestClient(server.url).visit('/auth/oidc');
      expect(answer.headers.get('location')).toBe('/login?error=SIGN_IN_PROVIDER_UNREACHABLE&provider=oidc');
    } finally {
      await server.close();
    }
  });
});
