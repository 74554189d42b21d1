import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { hashPassword } from '@wharf/contract/passwords';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import type { Edge } from '../src/edge/edge.ts';
import { randomString } from '../src/lib/ids.ts';
import { listenTls } from '../src/tls/https.ts';
import type { WharfApp } from '../src/wharfApp.ts';

/** The PostgreSQL the suite also runs against when set (CI sets it). */
export const testDatabaseUrl = process.env.WHARF_TEST_DATABASE_URL || null;
/** Redis for the suites of several nodes: WHARF_TEST_REDIS_URL (CI sets it). */
export const testRedisUrl = process.env.WHARF_TEST_REDIS_URL || null;

/**
 * The limit for a test that sweeps every route of the contract: hundreds of calls (some with a
 * database snapshot around each) run well past the default limit on PostgreSQL on a busy machine.
 */
export const SWEEP_TIMEOUT = 180_000;

/** Test users, all with the password `password`, signed in through the in-memory method. */
export const TEST_USERS = ['owner', 'admin', 'member', 'outsider', 'teammate', 'joiner'] as const;
export const TEST_PASSWORD = 'password';

let usersSetting: Promise<string> | undefined;
export function testUsersSetting() {
  usersSetting ??= hashPassword(TEST_PASSWORD).then((hash) => TEST_USERS.map((name) => `${name}:${hash}`).join(','));
  return usersSetting;
}

/** Ports this process has handed out: the system may give a just-released port again at once. */
const handedOut = new Set<number>();

/**
 * A port free now, and never one handed out before in this process: a test that takes two (HTTP
 * and HTTPS) before listening on either would otherwise get the same one twice now and then.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await anyFreePort();
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    return port;
  }
}

function anyFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface TestServer {
  url: string;
  app: WharfApp;
  /** The edge this server answers sites with. */
  edge: Edge;
  dataDir: string;
  logLines: string[];
  /** The environment another Wharf process (a CLI command) needs to work on this server's data. */
  dataEnv: Record<string, string>;
  /** The PostgreSQL schema it works in, if any. */
  schema?: string;
  close(): Promise<void>;
}

export interface TestServerOptions {
  env?: Record<string, string>;
  /** Use PostgreSQL (when reachable) instead of SQLite. */
  postgres?: boolean;
  /** Leave the test users out, as on a fresh installation. */
  withoutUsers?: boolean;
  serveConsole?: boolean;
  /** A console build of the test's own instead of the web package's. */
  consoleDir?: string;
  /** Keep the server's log lines in `logLines`. */
  captureLog?: boolean;
  /** A data directory the test provides (and removes), such as a small disk of its own. */
  dataDir?: string;
  /** A PostgreSQL schema the test provides (and removes), such as one a backup was restored into. */
  schema?: string;
  /** The HTTP port, when a peer must know it first (an ACME server checks HTTP-01 answers on it). */
  port?: number;
}

/** A PostgreSQL URL that works in one schema, for processes that only read DATABASE_URL. */
export function schemaUrl(schema: string) {
  return `${testDatabaseUrl}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
}

/** Starts a real Wharf on a free port, with a fresh data directory and database of its own. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'wharf-test-')));
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const schema = options.schema ?? (options.postgres && testDatabaseUrl ? `test_${randomString(12)}` : undefined);
  if (schema && !options.schema) await withPg((client) => client.query(`create schema ${schema}`));
  const config = loadConfig({
    WHARF_DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    WHARF_URL: url,
    WHARF_SITES_URL: `http://localhost:${port}`,
    LOG_LEVEL: options.captureLog ? 'info' : 'silent',
    ...(schema ? { DATABASE_URL: testDatabaseUrl! } : {}),
    ...(options.withoutUsers ? {} : { WHARF_USERS: await testUsersSetting() }),
    ...options.env,
  });
  const logLines: string[] = [];
  const { app, edge } = await buildApp(config, {
    dbSchema: schema,
    logger: options.captureLog === true,
    logStream: { write: (line: string) => void logLines.push(line) },
    serveConsole: options.serveConsole ?? options.consoleDir !== undefined,
    consoleDir: options.consoleDir,
  });
  await app.fastify.listen({ port, host: '127.0.0.1' });
  if (app.tls && config.https) await listenTls(app.tls, config.https.port, '127.0.0.1');
  return {
    url,
    app,
    edge,
    dataDir,
    logLines,
    dataEnv: { WHARF_DATA_DIR: dataDir, ...(schema ? { DATABASE_URL: schemaUrl(schema) } : {}) },
    schema,
    async close() {
      await app.fastify.close();
      if (schema && !options.schema) {
        await withPg((client) => client.query(`drop schema if exists ${schema} cascade`));
      }
      if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export async function withPg<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: testDatabaseUrl! });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A new, empty PostgreSQL schema, for a test that starts several servers on one database (and drops it). */
export async function randomSchema() {
  const schema = `test_${randomString(12)}`;
  await withPg((client) => client.query(`create schema ${schema}`));
  return schema;
}

/** The databases a suite runs against: SQLite always, PostgreSQL when WHARF_TEST_DATABASE_URL is set. */
export const databases: { name: string; postgres: boolean }[] = [
  { name: 'SQLite', postgres: false },
  ...(testDatabaseUrl ? [{ name: 'PostgreSQL', postgres: true }] : []),
];
