import type { Flag, Iso, Json } from './columns.ts';

/** The installation at work: its nodes, jobs and outbox, idempotency keys, housekeeping holds, certificates and ACME. */
export interface OperationTables {
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
  housekeeping_holds: { id: string; reason: string; expires_at: Iso };
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
