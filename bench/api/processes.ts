import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type BenchServer, startBenchServer } from '../deploy/wharfServer.ts';
import { type Load, runWrk, type WrkResult } from '../edge/wrk.ts';

/** What runs the comparison: the cases measured, and how each server is reached. */
interface Case {
  label: string;
  path: string;
}

export interface ProcessRow {
  label: string;
  one: WrkResult;
  many: WrkResult;
  bare: WrkResult;
  /** The bare server in one process: how far a second process can take even it on this machine. */
  bareOne: WrkResult;
}

/** The processes Wharf runs by default, and the bare server too: one per CPU. */
export const PROCESSES = os.availableParallelism();

/**
 * A list's answer as the server gives it, its sites' addresses without their port (Wharf started
 * again listens on another): null for an answer that is no list.
 */
async function listAnswer(port: number, target: string, cookie: string) {
  const answer = await fetch(`http://127.0.0.1:${port}${target}`, { headers: { cookie } });
  if (!answer.ok) throw new Error(`${target} answered ${answer.status}`);
  const text = await answer.text();
  const body = JSON.parse(text) as { count?: unknown };
  return typeof body.count === 'number' ? text.replace(/\.localhost:\d+\//g, '.localhost/') : null;
}

/**
 * Measures each case on `port`. Every setup must give the same answer as the first (`answers`, by
 * case): a server started again on the data once deleted the history as it started (its
 * retention), and an empty list was measured against a full one; the bare server's answer must be
 * Wharf's, field for field, or it would be measured doing less.
 */
async function measure(load: Load, port: number, cases: Case[], cookie: string, answers: Map<string, string | null>) {
  const results: WrkResult[] = [];
  for (const { label, path: target } of cases) {
    const answer = await listAnswer(port, target, cookie);
    if (!answers.has(label)) answers.set(label, answer);
    if (answers.get(label) !== answer)
      throw new Error(`${label}: this setup answers\n${answer}\nthe first one\n${answers.get(label)}`);
    await runWrk({ ...load, seconds: 2 }, port, target, { cookie });
    const result = await runWrk(load, port, target, { cookie });
    if (result.failures > 0) throw new Error(`${label}: ${result.failures} failures\n${result.output}`);
    results.push(result);
  }
  // wrk stops with requests still queued: let them finish before the server goes.
  await sleep(1000);
  return results;
}

/** bench/api/bare.ts on `port` with `processes` processes, until it answers; answers how to stop it. */
async function startBare(port: number, env: Record<string, string>, processes: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'bare.ts')], {
    env: {
      ...process.env,
      ...env,
      BARE_PORT: String(port),
      BARE_PROCESSES: String(processes),
      BARE_SITES_URL: `http://localhost:${port}`,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
    detached: true,
  });
  const deadline = Date.now() + 30_000;
  while (
    !(await fetch(`http://127.0.0.1:${port}/api/v1/system/info`)
      .then((a) => a.ok)
      .catch(() => false))
  ) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error('the bare server did not answer');
    await sleep(100);
  }
  return () => {
    process.kill(-child.pid!, 'SIGKILL');
  };
}

/**
 * The same cases, one after another on the same data: Wharf with PROCESSES workers (the server
 * the bench started), Wharf in one process, and the bare server with PROCESSES processes and
 * then one: what a second process gives the bare server is what this machine lets a second
 * process give at all, with wrk on the same CPUs. The bench's server is left stopped; its data
 * stays for the caller to remove.
 */
export async function compareProcesses(
  server: BenchServer,
  started: { serverEnv: Record<string, string>; bareEnv: Record<string, string> },
  cases: Case[],
  load: Load,
  cookie: string,
): Promise<ProcessRow[]> {
  const port = Number(new URL(server.url).port);
  const answers = new Map<string, string | null>();
  const many = await measure(load, port, cases, cookie, answers);
  await server.stop();
  const alone = await startBenchServer({ ...started.serverEnv, WHARF_WORKERS: '1' }, { dataDir: server.dataDir });
  const one = await measure(load, Number(new URL(alone.url).port), cases, cookie, answers);
  await alone.stop();
  const bareWith = async (processes: number) => {
    const stopBare = await startBare(port, started.bareEnv, processes);
    try {
      return await measure(load, port, cases, cookie, answers);
    } finally {
      stopBare();
    }
  };
  const bare = await bareWith(PROCESSES);
  const bareOne = await bareWith(1);
  return cases.map(({ label }, i) => ({ label, one: one[i]!, many: many[i]!, bare: bare[i]!, bareOne: bareOne[i]! }));
}

/** Issue 30's targets: 1.7× from a second process, and at least 0.7× a bare Fastify on the same queries. */
export function processTable(rows: ProcessRow[]) {
  const rate = (result: WrkResult) => Math.round(result.requestsPerSecond).toLocaleString('en-US');
  const cells = rows.map(({ label, one, many, bare, bareOne }) => [
    label,
    `${rate(one)} / ${one.p99Ms.toFixed(1)}`,
    `${rate(many)} / ${many.p99Ms.toFixed(1)}`,
    `${(many.requestsPerSecond / one.requestsPerSecond).toFixed(2)}×`,
    `${rate(bare)} / ${bare.p99Ms.toFixed(1)}`,
    `${(many.requestsPerSecond / bare.requestsPerSecond).toFixed(2)}×`,
    `${(bare.requestsPerSecond / bareOne.requestsPerSecond).toFixed(2)}×`,
  ]);
  const header = [
    'request',
    'Wharf, 1 process: req/s / p99 ms',
    `Wharf, ${PROCESSES} workers`,
    `${PROCESSES} vs 1`,
    `bare Fastify, ${PROCESSES} processes`,
    'Wharf/bare',
    `bare, ${PROCESSES} vs 1`,
  ];
  const widths = header.map((title, i) => Math.max(title.length, ...cells.map((row) => row[i]!.length)));
  const line = (row: string[]) =>
    row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n');
}
