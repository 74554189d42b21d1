import type { Route } from '@wharf/contract';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { AccessGuards, Guard } from '../access/guards.ts';
import type { Housekeeping } from '../cluster/housekeeping.ts';
import type { Config } from '../config/types.ts';
import type { Db } from '../db/schema.ts';
import type { Dispatcher } from '../events/dispatcher.ts';
import type { AnyRoute, RouteHandler } from '../http/handle.ts';
import type { JobRunner } from '../jobs/runner.ts';
import type { Counters } from '../lib/counters.ts';
import type { Sealer } from '../lib/secrets.ts';
import type { Lifecycle } from '../lifecycle/lifecycle.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { NodeMetrics } from '../metrics/nodeMetrics.ts';
import type { DeployMetrics } from '../modules/releases/deployMetrics.ts';
import type { OutboundGuard } from '../outbound/guard.ts';
import type { BlobStore } from '../storage/blobStore.ts';
import type { Acme } from '../tls/acme/start.ts';
import type { TlsFront } from '../tls/https.ts';

/**
 * The parts a node's features share, built once by `app.ts`: the configuration, the database, the
 * stores and guards, and `handle` to bind routes. No feature receives them all: each declares what
 * it needs (`features.ts`) and gets those (`PartsOf`).
 */
export interface Parts {
  config: Config;
  db: Db;
  sealer: Sealer;
  blobs: BlobStore;
  /** Reads the outbox in commit order and fans each event out (edges, sockets, hooks). */
  dispatcher: Dispatcher;
  /** Sends what leaves Wharf (hook deliveries, mail), with retries. */
  jobs: JobRunner;
  /** The periodic chores the features add, run on one node at a time. */
  housekeeping: Housekeeping;
  /** SMTP, when the operator configured it; null means mail is off. */
  mailer: Mailer | null;
  /** Connections of reverse-proxy rules (and the HTTP ownership check of custom domains). */
  outbound: OutboundGuard;
  /** Connections of hook deliveries, with the hooks' own allow-list. */
  hookOutbound: OutboundGuard;
  /** This node among the installation's (its row in the nodes table), and this process among its lives. */
  node: {
    name: string;
    instance: string;
    /** Whether the other processes can tell this one is alive (see `joinNodes`). */
    holdsLifeLock(): boolean;
  };
  /** Counts of sign-in guesses and such, shared by every process of the installation with Redis. */
  counters: Counters;
  /** This node's figures for /metrics (its workers' added in a cluster's primary). */
  metrics: NodeMetrics;
  /** Deploys made and failed, for /metrics. */
  deployMetrics: DeployMetrics;
  /** Starting, serving or draining, and the requests in flight: what /readyz and a shutdown read. */
  lifecycle: Lifecycle;
  /** The HTTPS server of a single process (`WHARF_HTTPS_PORT`), listened on beside Fastify's; null otherwise. */
  tls: TlsFront | null;
  /** Certificates obtained over ACME, when HTTPS obtains them. */
  acme: Acme | null;
  log: FastifyBaseLogger;
  fastify: FastifyInstance;
  /** The contract routes this server implements. */
  implemented: Set<Route>;
  /** The guards of the usual roles, for `handle`. */
  access: AccessGuards;
  /** Binds a contract route: its guard decides who may call it (before any input is read), its handler what it does. */
  handle<R extends AnyRoute, T extends object>(route: R, guard: Guard<T>, handler: RouteHandler<R, T>): void;
}

/** The parts a feature (or one of its functions) declares it reads, and all it receives. */
export type PartsOf<K extends keyof Parts> = Pick<Parts, K>;
