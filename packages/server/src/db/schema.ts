import type { Kysely, Transaction as KyselyTransaction } from 'kysely';

/** Booleans are stored as 0/1 integers so one set of migrations fits SQLite and PostgreSQL. */
type Flag = number;
/** Dates are ISO-8601 strings: portable, and they sort as text. */
type Iso = string;
/** JSON documents are stored as text. */
type Json = string;

export interface Database {
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
  };
  /** A sign-in through a provider in progress, spent by its callback. */
  sign_in_flows: {
    state_hash: string;
    provider: string;
    code_verifier_sealed: string;
    nonce: string;
    link_user_id: string | null;
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
  sites: {
    id: string;
    org_id: string;
    team_id: string;
    name: string;
    color: string;
    logo_type: string | null;
    logo_version: string | null;
    main_branch_id: string;
    spa: Flag;
    pretty_urls: Flag;
    password_hash: string | null;
    password_version: string | null;
    domains: Json;
    headers: Json;
    /** Releases no branch serves go after this many days, and beyond the newest this many; null: never. */
    keep_releases_days: number | null;
    keep_releases_count: number | null;
    created_at: Iso;
  };
  /** Sites' claims of custom domains: several per name until one is verified (see migration 022). */
  domain_claims: {
    name: string;
    site_id: string;
    org_id: string;
    verified_at: Iso | null;
    verified_by: 'txt' | 'http' | null;
    claimed_at: Iso;
  };
  /** Verified domains taken off their site lately, by the organization that held them. */
  released_domains: { name: string; org_id: string; released_at: Iso };
  branches: {
    id: string;
    site_id: string;
    name: string;
    slug: string;
    release_id: string | null;
    password_hash: string | null;
    password_version: string | null;
    headers: Json;
    redirects: Json;
    /** When the branch is deleted by itself (a preview's end); null: never. */
    expires_at: Iso | null;
    created_at: Iso;
  };
  releases: {
    id: string;
    site_id: string;
    name: string;
    forms: Json;
    file_count: number;
    total_size: number;
    /** The rules of its `_redirects` and `_headers`, parsed at upload (JSON: {redirects, headers}). */
    rules: Json;
    /** JSON array of the problems found in those files (RuleProblem). */
    rule_problems: Json;
    created_at: Iso;
  };
  blobs: {
    hash: string;
    size: number;
    br_size: number | null;
    gz_size: number | null;
    /** 1 while its brotli and gzip variants are still to be made (see migration 019). */
    variants_pending: Flag;
    created_at: Iso;
    /** 1 once the collection found it unused: its files may be gone; a deploy stores it again (migration 026). */
    dead: Flag;
  };
  /** The blobs each organization has uploaded itself: only those count as "already there" for it. */
  org_blobs: { org_id: string; hash: string; created_at: Iso };
  release_files: { release_id: string; path: string; hash: string; size: number };
  deploys: {
    id: string;
    site_id: string;
    name: string;
    branches: Json;
    actor_id: string | null;
    created_at: Iso;
    expires_at: Iso;
    /** Set when the deploy became this release. */
    release_id: string | null;
    /** How long after the release its branches expire (`14d`); null: they do not. */
    branch_expiry: string | null;
    /** 1: make a release even when its files equal those the branches serve. */
    force: Flag;
  };
  deploy_files: { deploy_id: string; path: string; hash: string; size: number };
  /** What every process of the installation must agree on (`secret_check`: see lib/secretCheck.ts). */
  installation: { name: string; value: string; created_at: Iso };
  /** The nodes running (cluster/nodes.ts): each updates `seen_at` every few seconds. */
  nodes: {
    name: string;
    /** `api,edge,worker`, or some of them. */
    roles: string;
    /** `s3://bucket/prefix`, or `folder` for a data directory of its own. */
    storage: string;
    /** 1 when it counts with Redis. */
    shares_counters: Flag;
    started_at: Iso;
    seen_at: Iso;
  };
  idempotency_keys: {
    /** Who sent the key (`site-token:…`, `api-token:…`, `user:…`): keys of different callers never meet. */
    caller: string;
    key: string;
    /** Digest of the request; null while a streamed body is still being read. */
    fingerprint: string | null;
    /** The JSON answer; null while the first request with the key runs. */
    answer: Json | null;
    /** The node process running the first request (`name@started_at` of nodes); null for claims made before it was kept. */
    held_by: string | null;
    created_at: Iso;
    expires_at: Iso;
  };
  page_views: { day: string; path: string; views: number };
  housekeeping_holds: { id: string; reason: string; expires_at: Iso };
  site_traffic: {
    site_id: string;
    hour: Iso;
    requests: number;
    bytes: number;
    status_2xx: number;
    status_3xx: number;
    status_4xx: number;
    status_5xx: number;
  };
  form_submissions: {
    id: string;
    site_id: string;
    branch_id: string;
    release_id: string;
    form: string;
    fields: Json;
    client_address: string;
    created_at: Iso;
    /** Caught by the honeypot: kept apart, never mailed nor announced. */
    spam: Flag;
    /** The branch's name when it was posted to, for a branch deleted since. */
    branch_name: string;
  };
  /** The forms of a site (migration 021): they outlive releases. */
  site_forms: {
    site_id: string;
    /** The name in lower case: names are unique per site, case aside. */
    name_key: string;
    /** JSON of the Form (type, name, recipient, honeypot). */
    definition: Json;
    /** JSON list of the branch ids it is narrowed to; null: every branch. */
    branch_ids: Json | null;
    /** Found in an upload's HTML rather than declared by a person. */
    detected: Flag;
    /** Its place in the list people see. */
    position: number;
  };
  branch_releases: { branch_id: string; release_id: string; set_at: Iso };
  /** The length of each list kept by triggers (migration 018): `list` names it, `owner_id` whose it is. */
  list_counts: { list: string; owner_id: string; total: number };
  site_tokens: { id: string; site_id: string; name: string; value_sealed: string; value_hash: string; created_at: Iso };
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
  hooks: {
    id: string;
    /** orgs, teams, sites, or users (a user's own hooks, owner_id the user). */
    context: string;
    owner_id: string;
    /** The organization the owner belongs to; '' for a user's own hook, which belongs to none. */
    org_id: string;
    type: string;
    name: string;
    events: Json;
    config: Json;
    created_at: Iso;
  };
  hook_deliveries: {
    id: string;
    hook_id: string;
    event_id: string;
    success: Flag;
    type: string;
    data: Json;
    date: Iso;
    /** The job this attempt belongs to, and its number among the job's attempts. */
    job_id: string | null;
    attempt: number | null;
  };
  /** An ACME account per directory, its key sealed. */
  acme_accounts: { directory_url: string; key_sealed: string; account_url: string | null; created_at: Iso };
  /**
   * Certificates Wharf obtains, by the name they are for (a host or `*.{parent}`). `pending` while
   * a process (holding the lease) orders it; `valid` once served; `failed` waits for `retry_at`.
   * A renewal keeps the served chain until the new one arrives.
   */
  tls_certificates: {
    name: string;
    site_id: string | null;
    state: 'pending' | 'valid' | 'failed';
    chain: string | null;
    key_sealed: string | null;
    not_after: Iso | null;
    last_error: string | null;
    attempts: number;
    retry_at: Iso | null;
    lease_until: Iso | null;
    created_at: Iso;
    updated_at: Iso;
  };
  /** HTTP-01 answers under way: any process answering port 80 finds them here. */
  acme_challenges: { token: string; key_authorization: string; expires_at: Iso };
  /** The counter that numbers events in commit order (one row, `events`). */
  event_sequence: { name: string; value: number };
  /** What leaves Wharf (hook deliveries, mails), sent by the job runner and retried with backoff. */
  jobs: {
    id: string;
    kind: string;
    hook_id: string | null;
    event_id: string | null;
    payload: Json;
    state: 'pending' | 'done' | 'failed';
    attempts: number;
    next_attempt_at: Iso;
    /** While set in the future, a process is sending the job; past it, another may take it. */
    lease_until: Iso | null;
    last_error: string | null;
    created_at: Iso;
    finished_at: Iso | null;
  };
  events: {
    id: string;
    /** Commit order (see migration 010); numbers are never reused once committed. */
    seq: number;
    name: string;
    org_id: string | null;
    team_id: string | null;
    site_id: string | null;
    user_id: string | null;
    actor_id: string | null;
    data: Json;
    created_at: Iso;
    dispatched_at: Iso | null;
  };
}

export type Db = Kysely<Database>;
/** A database handle or an open transaction: queries accept either. */
export type Executor = Kysely<Database> | KyselyTransaction<Database>;
export type Transaction = KyselyTransaction<Database>;
