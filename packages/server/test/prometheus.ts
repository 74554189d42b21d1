import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './harness.ts';

/** Debian's package `prometheus` holds both: the server and its `promtool`. */
export const PROMETHEUS = '/usr/bin/prometheus';
export const PROMTOOL = '/usr/bin/promtool';

/** Whether Debian's Prometheus is installed; when not, says loudly which suites it skips. */
export function prometheusInstalled(): boolean {
  const installed = existsSync(PROMETHEUS) && existsSync(PROMTOOL);
  if (!installed)
    console.warn(
      [
        '!'.repeat(78),
        `!! ${PROMETHEUS} or ${PROMTOOL} is missing: the checks of /metrics by Prometheus itself are SKIPPED.`,
        '!! Install them: apt-get install prometheus',
        '!'.repeat(78),
      ].join('\n'),
    );
  return installed;
}

/** `promtool check metrics` on a scrape: its exit code and everything it said. */
export function promtoolCheck(exposition: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = execFile(PROMTOOL, ['check', 'metrics'], (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') reject(error);
      else resolve({ code: typeof error?.code === 'number' ? error.code : 0, output: `${stdout}${stderr}` });
    });
    child.stdin!.end(exposition);
  });
}

export interface ScrapeTarget {
  /** host:port of the Wharf to scrape. */
  address: string;
  /** Its WHARF_METRICS_TOKEN, sent as Authorization: Bearer. */
  token: string;
}

export interface Prometheus {
  url: string;
  /** An instant query of the HTTP API: the result's samples, each its labels and value. */
  query(expression: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]>;
  log(): string;
  close(): Promise<void>;
}

/** A scrape of Wharf's /metrics every second, with the token, as the README suggests. */
function configuration(target: ScrapeTarget) {
  return `global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: wharf
    metrics_path: /metrics
    authorization:
      type: Bearer
      credentials: ${JSON.stringify(target.token)}
    static_configs:
      - targets: [${JSON.stringify(target.address)}]
`;
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** Debian's Prometheus on a free loopback port with a data directory of its own, scraping `target`. */
export async function startPrometheus(target: ScrapeTarget): Promise<Prometheus> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'wharf-prometheus-'));
  const config = path.join(dir, 'prometheus.yml');
  await writeFile(config, configuration(target));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(
    PROMETHEUS,
    [
      `--config.file=${config}`,
      `--storage.tsdb.path=${path.join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let log = '';
  for (const stream of [child.stdout!, child.stderr!])
    stream.on('data', (chunk: Buffer) => {
      log += chunk.toString();
    });
  const close = async () => {
    await stop(child);
    await rm(dir, { recursive: true, force: true });
  };
  for (let attempt = 0; attempt < 300 && child.exitCode === null; attempt++) {
    const ready = await fetch(`${url}/-/ready`).catch(() => null);
    if (ready?.ok)
      return {
        url,
        async query(expression) {
          const answer = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(expression)}`);
          const body = (await answer.json()) as { status: string; data: { result: [] }; error?: string };
          if (body.status !== 'success') throw new Error(`Prometheus refused ${expression}: ${body.error}`);
          return body.data.result;
        },
        log: () => log,
        close,
      };
    await sleep(100);
  }
  await close();
  throw new Error(`Prometheus did not start on port ${port}:\n${log}`);
}
