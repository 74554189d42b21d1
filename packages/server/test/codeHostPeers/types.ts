import type { RepositoryRoute } from './repositories.ts';

/** One address of a person at the provider, as GitHub's `/user/emails` lists them. */
export interface PeerEmail {
  email: string;
  primary: boolean;
  verified: boolean;
  visibility?: 'public' | 'private' | null;
}

/** A repository a person may read at the provider. */
export interface PeerRepository {
  /** `owner/name` (GitLab: the project's whole path). */
  fullName: string;
  private?: boolean;
  /** Admin (GitHub, Gitea) or Maintainer (GitLab): may add webhooks and deploy keys. */
  admin?: boolean;
  defaultBranch?: string;
  pushedAt?: string;
  /** Where it is cloned over HTTPS, when not on the peer itself (a git server of the test's own). */
  httpsUrl?: string;
}

/** A webhook or deploy key a repository route added, with the body it was asked with. */
export interface PeerSetUp {
  id: number;
  repository: string;
  kind: 'hook' | 'key';
  body: Record<string, unknown>;
  /** How many times the hook was changed after it was added. */
  updates?: number;
  /** Removed through the API (no longer listed). */
  removed?: boolean;
}

/** A person known to the provider. `orgs` are the names of the organizations (groups) they belong to. */
export interface PeerUser {
  id: number;
  login: string;
  name: string | null;
  email: string | null;
  avatarUrl?: string;
  orgs: string[];
  /** Defaults to the one primary, verified `email` (none when `email` is null). */
  emails?: PeerEmail[];
  repositories?: PeerRepository[];
}

export interface PeerOptions {
  clientId: string;
  clientSecret: string;
  /** The one redirect URI registered for the client; may be set later with `setRedirectUri`. */
  redirectUri?: string;
  /** When true (the default) the authorize GET redirects at once, without the approval page. */
  autoApprove?: boolean;
  /** Served over HTTPS with this certificate (for 127.0.0.1) and key. */
  tls?: { cert: string; key: string };
}

/** A request the peer received, as it came. */
export interface RecordedRequest {
  method: string;
  /** The path without the query. */
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  /** The raw body ('' when none). */
  body: string;
}

export interface CodeHostPeer {
  /** The provider's base URL, `http://127.0.0.1:PORT`, without a trailing slash. */
  url: string;
  /** Where its REST API lives: `${url}/api/v3` (GitHub), `/api/v4` (GitLab), `/api/v1` (Gitea). */
  apiUrl: string;
  /** Every request received, oldest first. */
  requests: RecordedRequest[];
  addUser(user: PeerUser): void;
  /** Who the authorize endpoint approves: the person signed in at the provider. */
  signInAs(login: string): void;
  /** The next authorization request is answered with `error=access_denied`. */
  denyNext(): void;
  setRedirectUri(uri: string): void;
  setAutoApprove(on: boolean): void;
  /** Every webhook and deploy key added to a repository, oldest first. */
  setUps: PeerSetUp[];
  /** Every token issued so far stops working (a person revoking the app's access). */
  revokeTokens(): void;
  /** Every access token issued so far expires; their refresh tokens still work (GitLab's after two hours). */
  expireTokens(): void;
  close(): Promise<void>;
}

/** What the peer answers: a JSON body, or a string body sent as is with the given headers. */
export interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** Why the token endpoint refuses a request; each provider words it its own way. */
export type TokenRefusal =
  | 'unsupported_grant_type'
  | 'invalid_request'
  | 'invalid_client'
  | 'bad_code'
  | 'reused_code'
  | 'redirect_mismatch'
  | 'bad_verifier';

/** A token the peer issued. */
export interface Grant {
  accessToken: string;
  refreshToken: string;
  scopes: string[];
  createdAt: Date;
}

/** What an API route handler gets: the token's owner and scopes, the query, and the peer's base URL. */
export interface ApiCall {
  user: PeerUser;
  scopes: string[];
  query: URLSearchParams;
  base: string;
  /** A stable id for an organization name (the same in every answer). */
  orgId(name: string): number;
  method: string;
  path: string;
  /** The JSON body, parsed (null when none). */
  body: unknown;
  setUps: PeerSetUp[];
}

/** How one provider lays out the flow and words its answers; the flow itself is shared. */
export interface Dialect {
  /** Shown on the approval page. */
  provider: string;
  apiPrefix: string;
  authorizePath: string;
  tokenPath: string;
  /** error_description of an `access_denied` redirect. */
  deniedDescription: string;
  tokenIssued(grant: Grant, accept: string): Answer;
  tokenRefused(reason: TokenRefusal, accept: string): Answer;
  /** The answer to an API call without a valid token. */
  badCredentials: Answer;
  /** API routes by `METHOD /path` below `apiPrefix`. */
  api: Record<string, (call: ApiCall) => Answer>;
  /** Routes with a repository in their path: `METHOD /path` below `apiPrefix` matched, the repository captured. */
  repositoryRoutes: RepositoryRoute[];
}
