import * as client from 'openid-client';
import type { OidcSettings } from '../../../config/types.ts';
import { failureText, type OutsideFetch } from '../../../outbound/outsideServices.ts';
import type { ProviderProfile } from '../identities.ts';
import { type FlowSecrets, type SignInProvider, SignInRefusal } from './provider.ts';

const TIMEOUT_SECONDS = 10;

type Claims = Record<string, unknown>;

/**
 * Any OpenID Connect provider (Keycloak, Authentik, Okta, Azure AD, Google…), with openid-client:
 * discovery, the authorization code flow with PKCE, state and nonce, and an ID token whose
 * signature (by the provider's JWKS), issuer, audience, expiry and nonce are verified.
 */
export function oidcProvider(settings: OidcSettings, groupsNeeded: boolean, fetch: OutsideFetch): SignInProvider {
  let discovered: Promise<client.Configuration> | null = null;
  // Discovered once and kept; a failed discovery is tried again at the next sign-in.
  const configuration = () => {
    discovered ??= discover(settings, fetch).catch((error) => {
      discovered = null;
      throw unreachable(`discovery of ${settings.issuer}`, error);
    });
    return discovered;
  };
  const withGroups = groupsNeeded || settings.allowedGroups.length > 0;

  return {
    id: 'oidc',
    label: settings.name,
    allowedGroups: settings.allowedGroups,
    async authorizationUrl(flow) {
      return client.buildAuthorizationUrl(await configuration(), {
        redirect_uri: flow.redirectUri,
        scope: settings.scopes.join(' '),
        state: flow.state,
        nonce: flow.nonce,
        code_challenge: await client.calculatePKCECodeChallenge(flow.codeVerifier),
        code_challenge_method: 'S256',
      });
    },
    async profileFrom(callbackUrl, flow) {
      const config = await configuration();
      const tokens = await grant(config, callbackUrl, flow);
      let claims: Claims = tokens.claims() ?? {};
      if (withGroups && claims[settings.groupsClaim] === undefined) {
        // Many providers put groups only in the userinfo answer, not in the ID token.
        const userInfo = await client
          .fetchUserInfo(config, tokens.access_token, String(claims.sub))
          .catch((error) => Promise.reject(failed('the userinfo request', error)));
        claims = { ...userInfo, ...claims };
      }
      // OpenID Connect grants no repository access: its tokens are not kept.
      const kept = { accessToken: tokens.access_token, refreshToken: null, expiresAt: null };
      return { profile: profileOf(claims, settings.groupsClaim), tokens: kept };
    },
  };
}

async function discover(settings: OidcSettings, fetch: OutsideFetch) {
  return client.discovery(
    settings.issuer,
    settings.clientId,
    undefined,
    client.ClientSecretPost(settings.clientSecret),
    {
      timeout: TIMEOUT_SECONDS,
      // Every request of the flow (discovery, JWKS, token, userinfo) goes through it: the operator's CAs count.
      [client.customFetch]: fetch,
      execute: [
        // The ID token's signature is checked against the provider's JWKS even though it comes
        // straight from the token endpoint (where OpenID Connect would let a client trust TLS alone).
        client.enableNonRepudiationChecks,
        // An issuer the operator set on plain HTTP (an identity provider on the private network) is their choice.
        ...(settings.issuer.protocol === 'http:' ? [client.allowInsecureRequests] : []),
      ],
    },
  );
}

async function grant(config: client.Configuration, callbackUrl: URL, flow: FlowSecrets) {
  try {
    return await client.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: flow.codeVerifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
      idTokenExpected: true,
    });
  } catch (error) {
    throw failed('the code exchange', error);
  }
}

function unreachable(what: string, error: unknown) {
  return new SignInRefusal('SIGN_IN_PROVIDER_UNREACHABLE', `${what}: ${failureText(error)}`);
}

/** A network failure is the provider being unreachable; anything else (a refused code, an ID token that fails a check) is a failed sign-in. */
function failed(what: string, error: unknown) {
  if (error instanceof TypeError || (error as Error).name === 'TimeoutError' || (error as Error).name === 'AbortError')
    return unreachable(what, error);
  return new SignInRefusal('SIGN_IN_FAILED', `${what}: ${failureText(error)}`);
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

function profileOf(claims: Claims, groupsClaim: string): ProviderProfile {
  const subject = text(claims.sub);
  if (!subject) throw new SignInRefusal('SIGN_IN_FAILED', 'the ID token names no subject');
  // An address the provider says is unverified is not kept: it would name someone who never proved it.
  const email = claims.email_verified === false ? null : text(claims.email);
  const login = text(claims.preferred_username) ?? email ?? subject;
  const groupValues = claims[groupsClaim];
  const groups = (Array.isArray(groupValues) ? groupValues : [groupValues])
    .filter((value): value is string => typeof value === 'string')
    .map((value) => value.toLowerCase());
  return {
    provider: 'oidc',
    subject,
    login,
    name: text(claims.name) ?? login,
    email,
    avatarUrl: text(claims.picture),
    groups,
  };
}
