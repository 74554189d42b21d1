import type { Flag, Iso, Json } from './columns.ts';

/** People and their organizations: accounts, sign-in, sessions, tokens, members, invites and teams. */
export interface AccountTables {
  users: {
    id: string;
    name: string;
    email: string | null;
    /** The account the user first signed in with (kept on an account that remains when it is disconnected). */
    provider: string;
    provider_id: string;
    avatar_url: string | null;
    created_at: Iso;
  };
  /** The accounts a user signs in with, by provider and the provider's id of the person. */
  identities: {
    id: string;
    user_id: string;
    provider: string;
    subject: string;
    login: string;
    name: string;
    email: string | null;
    avatar_url: string | null;
    /** JSON array of the organizations, groups or claim values seen at the last sign-in. */
    groups: string;
    created_at: Iso;
    last_sign_in_at: Iso | null;
    /** A code host's access token that may list and set up the account's repositories (sealed), and when it was granted. */
    repository_token_sealed: string | null;
    /** GitLab's and Gitea's access tokens expire: the refresh token that renews them (sealed), and when. */
    repository_refresh_sealed: string | null;
    repository_token_expires_at: Iso | null;
    repository_access_at: Iso | null;
  };
  /** A sign-in through a provider in progress, spent by its callback. */
  sign_in_flows: {
    state_hash: string;
    provider: string;
    code_verifier_sealed: string;
    nonce: string;
    link_user_id: string | null;
    /** Set for a grant of repository access: the console page the flow comes back to. */
    return_to: string | null;
    expires_at: Iso;
  };
  /** A sign-in of the `wharf` command waiting for approval in the console (modules/cliLogins). */
  cli_logins: {
    id: string;
    secret_hash: string;
    code: string;
    machine: string;
    address: string;
    state: 'pending' | 'approved' | 'cancelled' | 'claimed';
    user_id: string | null;
    api_token_id: string | null;
    created_at: Iso;
    expires_at: Iso;
    /** sha256 of the Idempotency-Key of the poll that took the token (038). */
    claim_key_hash: string | null;
  };
  password_logins: { name: string; password_hash: string; created_at: Iso };
  sessions: { id_hash: string; user_id: string; identity_id: string | null; created_at: Iso; expires_at: Iso };
  orgs: {
    id: string;
    name: string;
    color: string;
    logo_type: string | null;
    logo_version: string | null;
    created_at: Iso;
  };
  members: {
    id: string;
    org_id: string;
    user_id: string;
    admin: Flag;
    owner: Flag;
    /** Set when the member joined by invitation: the invited address and the account that accepted it. */
    invite_email: string | null;
    joined_provider: string | null;
    joined_login: string | null;
    joined_email: string | null;
    created_at: Iso;
  };
  invites: {
    id: string;
    org_id: string;
    email: string;
    admin: Flag;
    token_hash: string;
    expires_at: Iso;
    created_at: Iso;
  };
  teams: {
    id: string;
    org_id: string;
    name: string;
    color: string;
    logo_type: string | null;
    logo_version: string | null;
    created_at: Iso;
  };
  team_members: { team_id: string; member_id: string; created_at: Iso };
  api_tokens: {
    id: string;
    user_id: string;
    name: string;
    value_sealed: string;
    value_hash: string;
    scopes: Json;
    activates_at: Iso;
    expires_at: Iso | null;
    created_at: Iso;
  };
}
