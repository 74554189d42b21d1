import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { hashPassword } from '@wharf/contract/passwords';
import { expectStatus, TestClient } from '@wharf/server/testing';
import { buildServer } from '../../scripts/buildServer.mjs';

/** The user every bench server lets sign in, with its password. */
export const USER = 'bench';
const running = new Set<ChildProcess>();
// A bench that fails half-way must not leave servers behind.
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});
export const PASSWORD = 'bench-password';

export interface BenchServer {
  url: string;
  child: ChildProcess;
  /** Its data directory (the SQLite database is there unless DATABASE_URL was given). */
  dataDir: string;
  /** Stops it and keeps its data, for another server to start on. */
  stop(): Promise<void>;
  /** Stops it and removes its data directory. */
  close(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitUntilAnswering(url: string, child: ChildProcess) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`Wharf exited with ${child.exitCode} before it answered`);
    const answer = await fetch(`${url}/readyz`).catch(() => null);
    if (answer?.ok) return;
    await sleep(100);
  }
  throw new Error(`Wharf did not answer on ${url} within a minute`);
}

/**
 * A real Wharf in a process of its own, as `npm start` runs it (so its memory is its own), on
 * loopback, with a fresh SQLite database and blob store that go away on close.
 */
export async function startBenchServer(
  env: Record<string, string> = {},
  /** A data directory a stopped server left, to start on its data. */
  reuse?: { dataDir: string },
): Promise<BenchServer> {
  const dataDir = reuse?.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'wharf-bench-')));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // The server as `npm start` runs it: bundled, on plain Node.
  // BENCH_SERVER_MAIN: a bundle built from another commit, to compare two versions on one machine.
  const main = process.env.BENCH_SERVER_MAIN || (await buildServer());
  const child = spawn(process.execPath, [...(process.env.BENCH_SERVER_ARGS?.split(' ') ?? []), main], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ...(process.env.WHARF_WORKERS ? { WHARF_WORKERS: process.env.WHARF_WORKERS } : {}),
      PORT: String(port),
      HOST: '127.0.0.1',
      WHARF_URL: url,
      WHARF_SITES_URL: `http://localhost:${port}`,
      WHARF_DATA_DIR: dataDir,
      WHARF_USERS: `${USER}:${await hashPassword(PASSWORD)}`,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  await waitUntilAnswering(url, child);
  const stop = async () => {
    if (child.exitCode !== null) return;
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await gone;
  };
  return {
    url,
    child,
    dataDir,
    stop,
    async close() {
      await stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** An organization, team and site made through the API, and a site token to upload with. */
export async function createSite(url: string, name: string) {
  const client = await new TestClient(url).signIn(USER, PASSWORD);
  const org = expectStatus(await client.post('/api/v1/orgs', { name: `Bench ${name}` }), 200);
  const team = expectStatus(await client.post(`/api/v1/orgs/${org._id}/teams`, { name: 'Web' }), 200);
  const site = expectStatus(await client.post(`/api/v1/teams/${team._id}/sites`, { name }), 200);
  const token = expectStatus(await client.post(`/api/v1/sites/${site._id}/tokens`, { name: 'bench' }), 200);
  return { siteId: site._id as string, token: token.value as string };
}
