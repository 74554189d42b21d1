import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { OAuth2Server } from 'oauth2-mock-server';

/** Who the provider says signed in: the claims its ID token (and userinfo) carry. */
export interface OidcPerson {
  sub: string;
  name?: string;
  preferred_username?: string;
  email?: string;
  email_verified?: boolean;
  picture?: string;
  groups?: string[];
}

export interface OidcPeer {
  issuer: string;
  /** The person the next sign-ins are for; `groupsIn: 'userinfo'` leaves groups out of the ID token. */
  signInAs(person: OidcPerson, options?: { groupsIn?: 'idToken' | 'userinfo' }): void;
  /** A change to the next ID tokens' claims (another audience, an expiry in the past…); null stops it. */
  tamperIdToken(change: ((claims: Record<string, unknown>) => void) | null): void;
  /** Flips a bit of the next ID tokens' signatures after signing, until called with false. */
  breakSignatures(broken: boolean): void;
  close(): Promise<void>;
}

/**
 * A real OpenID Connect provider on loopback (oauth2-mock-server): discovery, JWKS, the
 * authorization code flow with PKCE, and ID tokens signed with its RS256 key. Over HTTPS with
 * `tls` (a certificate for 127.0.0.1 and its key).
 */
export async function startOidcPeer(options: { tls?: { cert: string; key: string } } = {}): Promise<OidcPeer> {
  const files = options.tls ? mkdtempSync(path.join(os.tmpdir(), 'wharf-oidc-')) : null;
  if (files && options.tls) {
    writeFileSync(path.join(files, 'cert.pem'), options.tls.cert);
    writeFileSync(path.join(files, 'key.pem'), options.tls.key);
  }
  const server = files
    ? new OAuth2Server(path.join(files, 'key.pem'), path.join(files, 'cert.pem'))
    : new OAuth2Server();
  await server.issuer.keys.generate('RS256');
  await server.start(0, '127.0.0.1');
  let person: OidcPerson = { sub: 'person-1', name: 'Ada Lovelace', email: 'ada@example.test' };
  let groupsInIdToken = true;
  let tamper: ((claims: Record<string, unknown>) => void) | null = null;
  let brokenSignatures = false;
  server.service.on('beforeResponse', (answer: { body: Record<string, unknown> }) => {
    const idToken = answer.body.id_token;
    if (!brokenSignatures || typeof idToken !== 'string') return;
    const [header, payload, signature = ''] = idToken.split('.');
    const flipped = signature.startsWith('A') ? `B${signature.slice(1)}` : `A${signature.slice(1)}`;
    answer.body.id_token = `${header}.${payload}.${flipped}`;
  });
  server.service.on('beforeTokenSigning', (token: { payload: Record<string, unknown> }) => {
    // The access token carries `amr`; only the ID token is the person's.
    if ('amr' in token.payload) return;
    const { groups, ...claims } = person;
    Object.assign(token.payload, claims, groupsInIdToken && groups ? { groups } : {});
    tamper?.(token.payload);
  });
  server.service.on('beforeUserinfo', (userInfo: { body: Record<string, unknown> }) => {
    userInfo.body = { ...person };
  });
  return {
    issuer: server.issuer.url!,
    signInAs(next, options = {}) {
      person = next;
      groupsInIdToken = (options.groupsIn ?? 'idToken') === 'idToken';
    },
    tamperIdToken(change) {
      tamper = change;
    },
    breakSignatures(broken) {
      brokenSignatures = broken;
    },
    async close() {
      await server.stop();
      if (files) rmSync(files, { recursive: true, force: true });
    },
  };
}

/** The variables that point Wharf at an OpenID Connect peer. */
export function oidcEnv(peer: OidcPeer, extra: Record<string, string> = {}): Record<string, string> {
  return {
    WHARF_OIDC_ISSUER: peer.issuer,
    WHARF_OIDC_CLIENT_ID: 'wharf-test',
    WHARF_OIDC_CLIENT_SECRET: 'wharf-test-secret',
    WHARF_OIDC_NAME: 'Keycloak',
    ...extra,
  };
}
