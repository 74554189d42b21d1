import type pg from 'pg';
import { BoundedClient, type ConnectionTarget, connectionSettings } from './pool.ts';

/** After a drop, the first try comes at once, the next ones wait twice as long each, up to a second. */
const FIRST_RETRY_MS = 100;
const MAX_RETRY_MS = 1_000;

export interface ConnectionLog {
  warn(details: Record<string, unknown>, message: string): void;
  info(details: Record<string, unknown>, message: string): void;
}

export interface DedicatedConnectionOptions extends ConnectionTarget {
  /** What the connection is for, as the log names it. */
  purpose: string;
  /** Makes a new connection what it is for (LISTEN, take a lock); a failure counts as a drop. */
  setUp(client: pg.Client): Promise<void>;
  /** Told each time the connection is up and set up again after a drop. */
  onBack?(): void;
  log: ConnectionLog;
}

/**
 * A connection to PostgreSQL of its own, for what a pooled one cannot do (hear NOTIFY, hold a
 * session's advisory lock), kept up for as long as it is wanted: when PostgreSQL closes it (a
 * restart, a fail-over, `pg_terminate_backend`, a proxy's idle timeout) it is made and set up
 * again, tried at once, then every second at most, until the database is back.
 */
export class DedicatedConnection {
  private client: pg.Client | null = null;
  private retry: NodeJS.Timeout | undefined;
  private failedTries = 0;
  private lostAt: number | null = null;
  private closed = false;
  private isUp = false;
  private markReady!: () => void;
  /** Resolves once the connection is up and set up for the first time. */
  readonly ready = new Promise<void>((resolve) => {
    this.markReady = resolve;
  });

  constructor(private readonly options: DedicatedConnectionOptions) {
    void this.connect();
  }

  /** Whether the connection is up and set up now. */
  get up() {
    return this.isUp;
  }

  /** Ends the connection (and what it holds); it is not made again. */
  async close() {
    this.closed = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    this.isUp = false;
    await client?.end().catch(() => undefined);
  }

  private async connect() {
    const client = new BoundedClient(connectionSettings(this.options));
    this.client = client;
    client.on('error', (err) => this.dropped(client, err));
    client.on('end', () => this.dropped(client, new Error('the connection ended')));
    try {
      await client.connect();
      await this.options.setUp(client);
    } catch (err) {
      this.dropped(client, err);
      return;
    }
    if (this.client !== client) return;
    this.isUp = true;
    this.failedTries = 0;
    this.markReady();
    if (this.lostAt !== null) {
      this.options.log.info(
        { purpose: this.options.purpose, downForMs: Date.now() - this.lostAt },
        'a dedicated connection to the database is back',
      );
      this.lostAt = null;
      this.options.onBack?.();
    }
  }

  /** Lets a connection that failed go, and makes another after a wait. */
  private dropped(client: pg.Client, err: unknown) {
    if (this.client !== client) return;
    this.client = null;
    this.isUp = false;
    void client.end().catch(() => undefined);
    if (this.closed) return;
    if (this.lostAt === null) {
      this.lostAt = Date.now();
      this.options.log.warn(
        { err, purpose: this.options.purpose },
        'a dedicated connection to the database dropped; connecting again',
      );
    }
    const waitMs = Math.min(FIRST_RETRY_MS * 2 ** this.failedTries++, MAX_RETRY_MS);
    this.retry = setTimeout(() => void this.connect(), waitMs);
    this.retry.unref();
  }
}
