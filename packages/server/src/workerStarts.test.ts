import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { freePort } from '../test/harness.ts';
import {
  childPids,
  exited,
  isAlive,
  startWharf,
  stopWharf,
  untilWorkersServe,
  type WharfProcess,
  waitForApi,
} from '../test/processes.ts';

/** The id of the first process the primary forks, as soon as it exists. */
async function firstWorker(wharf: WharfProcess) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (!isAlive(wharf.child)) throw new Error(`The primary exited: ${wharf.stderr()}`);
    const [pid] = childPids(wharf.child.pid!);
    if (pid !== undefined) return pid;
    await sleep(2);
  }
  throw new Error('The primary forked no worker');
}

const logLines = (wharf: WharfProcess) =>
  wharf
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line));

describe('a cluster whose workers stop while they start', () => {
  let dataDir: string;
  let wharf: WharfProcess | undefined;

  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'wharf-starts-'));
  });
  afterEach(async () => {
    if (wharf) await stopWharf(wharf);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('starts another in place of a worker a SIGTERM stopped while it started, and keeps running', async () => {
    const port = await freePort();
    wharf = await startWharf(dataDir, port, { WHARF_WORKERS: '2', LOG_LEVEL: 'info' });
    const victim = await firstWorker(wharf);
    process.kill(victim, 'SIGTERM');

    await waitForApi(`http://127.0.0.1:${port}`);
    await untilWorkersServe(wharf, 2, [victim]);
    expect(logLines(wharf)).toContainEqual(
      expect.objectContaining({ workerPid: victim, cause: 'it was stopped by SIGTERM', restartInMs: 1_000 }),
    );
    expect(isAlive(wharf.child)).toBe(true);
  }, 120_000);

  it('exits with the cause when workers keep failing to start', async () => {
    // The sites port is taken: every worker fails to listen on it, however often it is started.
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const sitesPort = (taken.address() as net.AddressInfo).port;
    try {
      wharf = await startWharf(dataDir, await freePort(), { WHARF_WORKERS: '2', WHARF_SITES_PORT: String(sitesPort) });
      expect(await exited(wharf.child)).toBe(1);
      expect(wharf.stderr()).toMatch(/Workers stopped before serving 5 times in a row; the last: .*EADDRINUSE/);
    } finally {
      taken.close();
    }
  }, 120_000);
});
