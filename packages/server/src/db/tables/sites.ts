import type { Flag, Iso, Json } from './columns.ts';

/** The lists of a day's traffic: paths answered, paths not found (404), hosts visitors came from. */
export type TrafficListKind = 'path' | 'missing' | 'referrer';

/** What traffic rows count of the answers: requests, body bytes, requests per status class. */
export interface AnswerCountColumns {
  requests: number;
  bytes: number;
  status_2xx: number;
  status_3xx: number;
  status_4xx: number;
  status_5xx: number;
}

/** Sites and what hangs off them: domains, branches, tokens, forms and their submissions, hooks, traffic, kept list lengths. */
export interface SiteTables {
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
    /** Counted up by triggers whenever the site's forms change (migration 039). */
    forms_revision: number;
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
  site_tokens: { id: string; site_id: string; name: string; value_sealed: string; value_hash: string; created_at: Iso };
  /** The repository a site builds from (migration 032); `branches` is JSON of glob patterns. */
  site_repositories: {
    site_id: string;
    url: string;
    production_branch: string;
    base_directory: string;
    build_command: string;
    publish_directory: string;
    image: string;
    branch_deploys: 'all' | 'none' | 'listed';
    branches: Json;
    previews: number;
    deploy_key_public: string;
    /** The OpenSSH private key, sealed. */
    deploy_key_sealed: string;
    deploy_key_created_at: Iso;
    connected_at: Iso;
    updated_at: Iso;
    /** When 'clear cache' was asked for last (migration 033): builders drop caches saved before. */
    cache_cleared_at: Iso | null;
    /** What the forge signs webhook deliveries with (migration 035), sealed. */
    webhook_secret_sealed: string;
    /** JSON list of path patterns whose change makes a push build (migration 036); empty: the base directory. */
    watch_paths: Json;
    /** The forge access token builds report with (migration 036), sealed; null: they do not report. */
    forge_token_sealed: string | null;
    /** Why the last report to the forge failed, and when; null once one succeeds. */
    report_error: string | null;
    report_error_at: Iso | null;
    /** The SSH host's keys the first clone over SSH learnt (known_hosts lines), and when; null: none yet. */
    ssh_known_hosts: string | null;
    ssh_known_at: Iso | null;
  };
  /** Builds of a site (migration 033), also the builders' queue; `source` and `phases` are JSON. */
  builds: {
    id: string;
    site_id: string;
    org_id: string;
    git_branch: string;
    branch: string;
    source: Json;
    trigger: 'manual' | 'hook' | 'push' | 'pullRequest' | 'retry';
    triggered_by: string | null;
    actor_id: string | null;
    retry_of: string | null;
    image: string;
    state: 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
    phases: Json;
    error: string | null;
    release_id: string | null;
    cancel_requested: Flag;
    /** The builder node running it, and until when its claim holds unless renewed. */
    node: string | null;
    lease_until: Iso | null;
    /** Lines of its log so far: the next line's seq. */
    log_lines: number;
    /** What to fetch instead of its branch (a pull request's head ref, migration 035); null: the branch. */
    fetch_ref: string | null;
    /** Where its forge's API keeps its commit and pull request (migration 036), JSON; null: not reported. */
    report: Json | null;
    created_at: Iso;
    started_at: Iso | null;
    finished_at: Iso | null;
  };
  build_log: { build_id: string; seq: number; at: Iso; text: string };
  /** The comment Wharf keeps up to date on each pull request of a site (migration 036). */
  pull_request_comments: { site_id: string; number: number; comment_id: string; updated_at: Iso };
  /** Secret addresses that queue a build of a branch; only the token's hash is kept. */
  build_hooks: {
    id: string;
    site_id: string;
    name: string;
    git_branch: string;
    token_hash: string;
    created_at: Iso;
    last_used_at: Iso | null;
  };
  /** Webhook deliveries received (migration 035), by the digest of their body: a replay is refused. */
  webhook_deliveries: { site_id: string; digest: string; delivery_id: string; received_at: Iso };
  /** Variables of a site's builds (migration 034); `git_branch` is '' unless `context` is 'branch'. */
  build_variables: {
    id: string;
    site_id: string;
    key: string;
    context: 'all' | 'production' | 'previews' | 'branch';
    git_branch: string;
    value_sealed: string;
    secret: Flag;
    created_at: Iso;
    updated_at: Iso;
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
  page_views: { day: string; path: string; views: number };
  site_traffic: { site_id: string; hour: Iso } & AnswerCountColumns;
  /** `site_traffic` per branch: `branch` is the branch's id, or `releases` for the releases' own addresses. */
  branch_traffic: { site_id: string; branch: string; hour: Iso } & AnswerCountColumns;
  /** A day's count of one path, path not found or referring host (`kind`); `key` '' counts the rest. */
  traffic_top: { site_id: string; branch: string; day: string; kind: TrafficListKind; key: string; requests: number };
  /** The length of each list kept by triggers (migration 018): `list` names it, `owner_id` whose it is. */
  list_counts: { list: string; owner_id: string; total: number };
}
