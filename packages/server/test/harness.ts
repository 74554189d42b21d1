import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { hashPassword } from '@wharf/contract/passwords';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config/load.ts';
import type { Edge } from '../src/edge/edge.ts';
import type { Parts } from '../src/features/parts.ts';
import { randomString } from '../src/lib/ids.ts';
import { listenTls } from '../src/tls/https.ts';

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

/**
 * The test users' password hash is checked at every test sign-in (each world built signs six users
 * in): at the default cost, 180 ms of a CI machine's core each, that was a third of the modules'
 * suites' CPU. It guards
 * nothing, so it is made cheap; sign-in runs the same check, at the cost the hash carries.
 */
const TEST_PASSWORD_COST = 2 ** 10;

let passwordHashing: Promise<string> | undefined;
/** The hash of TEST_PASSWORD, for the WHARF_USERS of a server a test starts. */
export function testPasswordHash() {
  passwordHashing ??= hashPassword(TEST_PASSWORD, TEST_PASSWORD_COST);
  return passwordHashing;
}

/**
 * WHARF_USERS for the test users. `defaultCost`: hashed as a person's password is, for a test that
 * times the check itself (an unknown name is checked against a hash of the default cost).
 */
export async function testUsersSetting(options: { defaultCost?: boolean } = {}) {
  const hash = options.defaultCost ? await hashPassword(TEST_PASSWORD) : await testPasswordHash();
  return TEST_USERS.map((name) => `${name}:${hash}`).join(',');
}

/**
 * Where the test processes on this machine (every Vitest worker, every run side by side) note the
 * ports they handed out: a port the kernel says is free can be handed to two of them before
 * either's server listens, and then one's requests reach the other's server (a 404 for a site
 * that server never had, ci29).
 */
const RESERVATIONS = path.join(os.tmpdir(), 'wharf-test-ports');
const reserved: string[] = [];
process.once('exit', () => {
  for (const file of reserved) rmSync(file, { force: true });
});

function holderAlive(file: string) {
  try {
    process.kill(Number(readFileSync(file, 'utf8')), 0);
    return true;
  } catch {
    return false;
  }
}

/** Notes `port` as this process's, unless a living process holds it. */
function reserve(port: number) {
  const file = path.join(RESERVATIONS, String(port));
  for (let tries = 0; tries < 2; tries++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      reserved.push(file);
      return true;
    } catch {
      if (holderAlive(file)) return false;
      rmSync(file, { force: true });
    }
  }
  return false;
}

/** A port free now and handed to no other test process while this one lives. */
export async function freePort(): Promise<number> {
  mkdirSync(RESERVATIONS, { recursive: true });
  for (;;) {
    const port = await anyFreePort();
    if (reserve(port)) return port;
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
  app: Parts;
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
