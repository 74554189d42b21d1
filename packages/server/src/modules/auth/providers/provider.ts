import { failureText, type OutsideFetch } from '../../../outbound/outsideServices.ts';
import type { ProviderProfile } from '../identities.ts';
import type { RepositoryApiCall, RepositoryDialect } from './repositoryApi.ts';

/** What a flow carries from its start to its callback (kept server-side, spent once). */
export interface FlowSecrets {
  state: string;
  codeVerifier: string;
  nonce: string;
  redirectUri: string;
}

/** What a token endpoint grants: the access token, and for GitLab and Gitea a refresh token and when the access ends. */
export interface AccessTokens {
  accessToken: string;
  refreshToken: string | null;
  /** Null for a token that does not expire (a GitHub OAuth App's). */
  expiresAt: string | null;
}

/** Who the person is, and the tokens the provider granted (kept only when repository access was asked for). */
export interface SignedIn {
  profile: ProviderProfile;
  tokens: AccessTokens;
}

/**
 * One way to sign in through another service. `authorizationUrl` is where the browser goes (asking
 * also for repository access, for a code host, when `access` says so); `profileFrom` turns the
 * callback into who the person is, or throws a SignInRefusal.
 */
export interface SignInProvider {
  id: string;
  /** The name people know it by, for logs and messages. */
  label: string;
  authorizationUrl(flow: FlowSecrets, access?: 'repositories'): Promise<URL>;
  profileFrom(callbackUrl: URL, flow: FlowSecrets): Promise<SignedIn>;
  /** Lowercase groups of which one is needed to sign in; empty lets every account in. */
  allowedGroups: string[];
  /** A code host's repositories: its API called with an account's token, and how it words them. */
  repositories?: {
    /** Where the code host is served (https://github.com, a GitLab of one's own): its repositories' host. */
    url: string;
    api(token: string): RepositoryApiCall;
    dialect: RepositoryDialect;
    /** New tokens for a refresh token (GitLab's and Gitea's access tokens expire; GitHub's do not). */
    refresh(refreshToken: string): Promise<AccessTokens>;
  };
}

export type RefusalCode = 'SIGN_IN_FAILED' | 'SIGN_IN_PROVIDER_UNREACHABLE' | 'SIGN_IN_CANCELLED';

/** A callback that does not prove who the person is; `detail` goes to the log, never to the page. */
export class SignInRefusal extends Error {
  constructor(
    readonly code: RefusalCode,
    readonly detail: string,
  ) {
    super(detail);
  }
}

const PROVIDER_TIMEOUT_MS = 10_000;

/**
 * Reads JSON from a provider (its API, its token endpoint) through the outside fetch, whose
 * roots include the operator's CAs; an unreachable or failing provider becomes a refusal that
 * says why (the TLS or network cause, or the status and the start of the answer).
 */
export async function fetchProviderJson<T>(fetch: OutsideFetch, url: URL | string, init: RequestInit): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS) });
  } catch (error) {
    throw new SignInRefusal('SIGN_IN_PROVIDER_UNREACHABLE', `${url}: ${failureText(error)}`);
  }
  if (!response.ok) {
    const text = await response.text().catch(() => '');
    throw new SignInRefusal('SIGN_IN_FAILED', `${url} answered ${response.status}: ${text.slice(0, 200)}`);
  }
  return (await response.json()) as T;
}
