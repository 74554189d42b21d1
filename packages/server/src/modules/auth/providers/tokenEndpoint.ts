import type { CodeHostSettings } from '../../../config/types.ts';
import type { OutsideFetch } from '../../../outbound/outsideServices.ts';
import { type AccessTokens, fetchProviderJson, SignInRefusal } from './provider.ts';

interface TokenAnswer {
  access_token?: unknown;
  refresh_token?: unknown;
  expires_in?: unknown;
  error?: unknown;
}

/**
 * One request to a code host's token endpoint (RFC 6749 §4.1.3 and §6), the client named by HTTP
 * Basic as the three providers take it, sent through the outside fetch (arctic, which builds the
 * authorization URL, sends its requests with Node's global fetch: no private CA reaches it).
 */
export async function requestTokens(
  fetch: OutsideFetch,
  settings: CodeHostSettings,
  tokenEndpoint: string,
  form: Record<string, string>,
): Promise<AccessTokens> {
  const client = Buffer.from(`${settings.clientId}:${settings.clientSecret}`).toString('base64');
  const tokens = await fetchProviderJson<TokenAnswer>(fetch, tokenEndpoint, {
    method: 'POST',
    headers: {
      authorization: `Basic ${client}`,
      accept: 'application/json',
      'content-type': 'application/x-www-form-urlencoded',
      'user-agent': 'Wharf',
    },
    body: new URLSearchParams(form),
  });
  // GitHub answers a refused code with 200 and an `error` field.
  if (tokens.error)
    throw new SignInRefusal(
      'SIGN_IN_FAILED',
      `the token endpoint refused the ${form.grant_type}: ${String(tokens.error)}`,
    );
  if (typeof tokens.access_token !== 'string' || !tokens.access_token)
    throw new SignInRefusal('SIGN_IN_FAILED', 'the token answer carries no access_token');
  const lifetime = Number(tokens.expires_in);
  return {
    accessToken: tokens.access_token,
    refreshToken: typeof tokens.refresh_token === 'string' && tokens.refresh_token ? tokens.refresh_token : null,
    expiresAt: lifetime > 0 ? new Date(Date.now() + lifetime * 1000).toISOString() : null,
  };
}
