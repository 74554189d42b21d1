import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildServer } from '../../../scripts/buildServer.mjs';
import { freePort } from './harness.ts';
import { wholeBody } from './wholeAnswer.ts';

/** Wharf as `npm start` runs it: the server bundled into one module for plain Node, built once per test file. */
let bundled: Promise<string> | undefined;
export const bundledServer = () => {
  bundled ??= buildServer();
  return bundled;
};

export interface WharfProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
}

/** The Wharf processes this test file started that may still run: none outlives the file. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) killGroup(child.pid!);
});

function killGroup(pid: number) {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // The group has ended already.
  }
}

/** The processes of a process group, read from /proc (the fifth field of stat). */
function groupMembers(groupId: number): number[] {
  const members: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(group) === groupId && state !== 'Z') members.push(Number(name));
    } catch {
      // The process ended while the list was read.
    }
  }
  return members;
}

/**
 * Kills a started Wharf with every process it forked, and waits until all have ended: a worker
 * left behind by its killed primary would still be writing into the data folder the test then
 * removes (ENOTEMPTY, ci27).
 */
export async function stopWharf(wharf: WharfProcess) {
  const pid = wharf.child.pid!;
  killGroup(pid);
  await exited(wharf.child);
  const deadline = Date.now() + 10_000;
  while (groupMembers(pid).length > 0 && Date.now() < deadline) await sleep(20);
}

/** Wharf as `npm start` runs it, in a child process on `port`, with `env` added. */
export async function startWharf(dataDir: string, port: number, env: Record<string, string>): Promise<WharfProcess> {
  const child = spawn(process.execPath, ['--enable-source-maps', await bundledServer()], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      WHARF_URL: `http://127.0.0.1:${port}`,
      WHARF_SITES_URL: `http://localhost:${port}`,
      WHARF_DATA_DIR: dataDir,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, with the workers it forks: stopWharf ends them all together.
    detached: true,
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return { child, stdout: () => stdout, stderr: () => stderr };
}

export const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });

export const isAlive = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

/**
 * How long a started Wharf may take to answer: a cold start on a machine running the whole suite
 * beside other work (its primary forking workers that each load the bundle, migrations on a new
 * database) has taken over 30 s.
 */
export const START_TIMEOUT_MS = 120_000;

/**
 * Asks `url` every 100 ms until it answers 2xx, and answers that response; fails at once when
 * `child` (the process that should answer) exits, and after `timeoutMs` with its last answer.
 */
export async function untilAnswers(url: string, child?: ChildProcess, timeoutMs = START_TIMEOUT_MS) {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  for (;;) {
    const answer = await fetch(url, { signal: AbortSignal.timeout(10_000) }).catch(() => null);
    if (answer?.ok) return answer;
    if (answer) last = `${answer.status} ${await answer.text()}`;
    if (child && !isAlive(child)) throw new Error(`The process that should answer ${url} exited`);
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs / 1000} s (${last})`);
    await sleep(100);
  }
}

/** Waits until the API at `url` answers. */
export async function waitForApi(url: string, child?: ChildProcess) {
  await untilAnswers(`${url}/api/v1/system/info`, child);
}

/**
 * A site request on a connection of its own (`agent` false), or on one of `agent`'s. Which worker
 * takes a new connection is the kernel's choice: `connectionsToEachWorker` gives one per worker.
 */
export function siteGet(port: number, host: string, urlPath = '/', agent: http.Agent | false = false) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path: urlPath, headers: { host }, agent }, (res) => {
      wholeBody(res).then((body) => resolve({ status: res.statusCode ?? 0, text: body.toString() }), reject);
    });
    request.setTimeout(10_000, () => request.destroy(new Error('no answer within 10 s')));
    request.on('error', reject);
  });
}

/** The process holding the server's end of the connection from `clientPort` to `serverPort` on the loopback. */
function serverProcessOf(serverPort: number, clientPort: number): number | null {
  const filter = `( sport = :${serverPort} and dport = :${clientPort} )`;
  const sockets = execFileSync('ss', ['-tnpH', 'state', 'established', filter], { encoding: 'utf8' });
  const owner = /pid=(\d+)/.exec(sockets);
  return owner ? Number(owner[1]) : null;
}

/**
 * A kept-alive connection to each of the `count` workers of the cluster `wharf` (on `port`): new
 * ones are opened until every worker holds one, since the kernel decides which worker accepts
 * each, for up to 60 s while workers start. Requests through a worker's agent reach that worker;
 * `close` ends them all.
 */
export async function connectionsToEachWorker(wharf: WharfProcess, port: number, count: number) {
  const agents = new Map<number, http.Agent>();
  const deadline = Date.now() + 60_000;
  // One worker is no cluster: the process serves its connections itself.
  const serving = () => (count === 1 ? [wharf.child.pid!] : childPids(wharf.child.pid!));
  let workers = serving();
  while (agents.size < count || workers.length !== count) {
    if (Date.now() > deadline) {
      for (const agent of agents.values()) agent.destroy();
      throw new Error(`No connection reached each of ${count} workers within 60 s (workers: ${workers.join(', ')})`);
    }
    workers = serving();
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const socket = await new Promise<import('node:net').Socket>((resolve, reject) => {
      const request = http.get({ host: '127.0.0.1', port, path: '/healthz', agent }, (res) => {
        wholeBody(res).then(() => resolve(request.socket!), reject);
      });
      request.on('error', reject);
    });
    const worker = serverProcessOf(port, socket.localPort!);
    if (worker !== null && workers.includes(worker) && !agents.has(worker)) agents.set(worker, agent);
    else {
      agent.destroy();
      await sleep(10);
    }
  }
  return {
    agents: [...agents.values()],
    close: () => {
      for (const agent of agents.values()) agent.destroy();
    },
  };
}

/** The ids of a process's children (a cluster's workers), read from /proc. */
export function childPids(parent: number): number[] {
  const children: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // The command may hold spaces and parentheses: the fields after its closing one are plain.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(ppid) === parent && state !== 'Z') children.push(Number(name));
    } catch {
      // The process ended while the list was read.
    }
  }
  return children;
}

/** The worker processes a cluster's primary has reported serving, read from its log (LOG_LEVEL info). */
export function servingWorkers(wharf: WharfProcess): Set<number> {
  return new Set(
    wharf
      .stdout()
      .split('\n')
      .filter((line) => line.includes('a worker is serving'))
      .map((line) => JSON.parse(line).workerPid as number),
  );
}

/**
 * Waits until the primary has `count` workers, all serving and none of them one of `gone`;
 * fails if the primary exits meanwhile. Answers their ids.
 */
export async function untilWorkersServe(wharf: WharfProcess, count: number, gone: number[] = [], timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive(wharf.child)) throw new Error(`The primary exited: ${wharf.stderr()}`);
    const workers = childPids(wharf.child.pid!);
    const serving = servingWorkers(wharf);
    if (workers.length === count && workers.every((pid) => serving.has(pid) && !gone.includes(pid))) return workers;
    await sleep(50);
  }
  throw new Error(`No ${count} serving workers (without ${gone.join(', ')}) within ${timeoutMs / 1000} s`);
}

/** A node of several, as `npm start` runs it on a port of its own. */
export interface StartedNode {
  name: string;
  url: string;
  port: number;
  process: WharfProcess;
  dataDir: string;
}

/**
 * Starts a node in a data folder of its own (removed by the caller) and waits until its /readyz
 * answers 200; fails if it exits first.
 */
export async function startReadyNode(name: string, env: Record<string, string>): Promise<StartedNode> {
  const port = await freePort();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `wharf-${name}-`));
  const wharf = await startWharf(dataDir, port, { WHARF_NODE_NAME: name, ...env });
  const node = { name, port, url: `http://127.0.0.1:${port}`, process: wharf, dataDir };
  try {
    await untilAnswers(`${node.url}/readyz`, wharf.child);
  } catch (error) {
    throw new Error(`${name} was not ready: ${(error as Error).message}: ${wharf.stderr()}`);
  }
  return node;
}
