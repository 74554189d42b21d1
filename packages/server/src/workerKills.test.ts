import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tarGz, uploadForm } from '../test/archives.ts';
import { expectStatus, signedIn, type TestClient } from '../test/client.ts';
import { freePort, testPasswordHash } from '../test/harness.ts';
import {
  childPids,
  exited,
  startWharf,
  stopWharf,
  untilWorkersServe,
  type WharfProcess,
  waitForApi,
} from '../test/processes.ts';
import { IDLE_TO_PRIMARY_MS } from './edge/forwardToPrimary.ts';

const METRICS_TOKEN = 'worker-kills-metrics-token';
/** Large enough that a read is still under way now and then when a worker dies. */
const FILE = randomBytes(256 * 1024);
/** Far longer than any request of this load takes, on a busy machine too: one unanswered then hangs. */
const HANG_MS = 120_000;

/** One request of the load: what came back, `ok` when it was whole and right. */
interface Outcome {
  kind: 'site' | 'api' | 'upload';
  startedAt: number;
  endedAt: number;
  result: string;
}

interface Reply {
  status: number;
  body: Buffer;
}

/** A GET over `agent` (false: a connection of its own); a connection error or a hang rejects. */
function get(port: number, urlPath: string, headers: http.OutgoingHttpHeaders, agent: http.Agent | false) {
  return new Promise<Reply>((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path: urlPath, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    request.setTimeout(HANG_MS, () => request.destroy(Object.assign(new Error('hung'), { code: 'HUNG' })));
    request.on('error', reject);
  });
}

/** What a failed request met: a connection reset or refused, or else what it was. */
function failure(error: NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException }) {
  const code = error.code ?? error.cause?.code ?? '';
  if (/^(ECONNRESET|ECONNREFUSED|EPIPE|UND_ERR_SOCKET)$/.test(code) || error.message === 'fetch failed')
    return 'connection error';
  return `${code} ${error.message}`;
}

describe('a cluster under load whose workers are killed', () => {
  let dataDir: string;
  let port: number;
  let wharf: WharfProcess;
  let owner: TestClient;
  let site: { _id: string; name: string };
  let host: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'wharf-kills-'));
    port = await freePort();
    wharf = await startWharf(dataDir, port, {
      WHARF_WORKERS: '2',
      WHARF_USERS: `owner:${await testPasswordHash()}`,
      WHARF_METRICS_TOKEN: METRICS_TOKEN,
      LOG_LEVEL: 'info',
    });
    const url = `http://127.0.0.1:${port}`;
    await waitForApi(url);
    owner = await signedIn(url, 'owner');
    const org = expectStatus(await owner.post('/api/v1/orgs', { name: 'Acme' }), 200);
    const team = expectStatus(await owner.post(`/api/v1/orgs/${org._id}/teams`, { name: 'Web' }), 200);
    site = expectStatus(await owner.post(`/api/v1/teams/${team._id}/sites`, { name: 'killed' }), 200);
    host = `${site.name}.localhost:${port}`;
    const archive = await tarGz([{ name: 'file.bin', content: FILE }]);
    expectStatus(
      await owner.request('POST', `/api/v1/sites/${site._id}/releases`, uploadForm(archive, 'one', ['main'])),
      200,
    );
  }, 120_000);
  afterAll(async () => {
    if (wharf) await stopWharf(wharf);
    await rm(dataDir, { recursive: true, force: true });
  });

  /** A site read on a connection of its own (each goes to whichever worker takes it), bytes checked. */
  const siteRead = () =>
    get(port, '/file.bin', { host }, false).then((reply) =>
      reply.status === 200 && reply.body.equals(FILE) ? 'ok' : `${reply.status} ${reply.body.length} bytes`,
    );

  /** An API read handed over to the primary, on a kept-alive connection to a worker. */
  const apiRead = (agent: http.Agent) =>
    get(port, `/api/v1/sites/${site._id}`, { cookie: owner.cookieHeader }, agent).then((reply) =>
      reply.status === 200 && JSON.parse(reply.body.toString()).name === site.name
        ? 'ok'
        : `${reply.status} ${reply.body.toString()}`,
    );

  /** Releases the uploads made; each that was answered 200 must be there afterwards. */
  const uploaded: string[] = [];
  let uploads = 0;
  const upload = async () => {
    const files = [
      { name: 'index.html', content: `upload ${++uploads}` },
      { name: 'file.bin', content: FILE },
    ];
    const answer = await owner.request(
      'POST',
      `/api/v1/sites/${site._id}/releases`,
      uploadForm(await tarGz(files), `u${uploads}`),
    );
    if (answer.status !== 200) return `${answer.status} ${JSON.stringify(answer.body)}`;
    uploaded.push(answer.body._id);
    return 'ok';
  };

  /** Runs `request` in `loops` loops until told to stop; answers every outcome. */
  function load(kind: Outcome['kind'], loops: number, request: () => Promise<string>, until: () => boolean) {
    const outcomes: Outcome[] = [];
    const loop = async () => {
      while (!until()) {
        const startedAt = Date.now();
        const result = await request().catch(failure);
        outcomes.push({ kind, startedAt, endedAt: Date.now(), result });
      }
    };
    return Promise.all(Array.from({ length: loops }, loop)).then(() => outcomes);
  }

  /** The site's answers 2xx in the primary's metrics: its own totals, with what the workers reported. */
  async function servedByMetrics() {
    const reply = await get(port, '/metrics', { authorization: `Bearer ${METRICS_TOKEN}` }, false);
    const line = new RegExp(`wharf_site_requests_total\\{site="${site.name}",status="2xx"\\} (\\d+)`);
    return Number(line.exec(reply.body.toString())?.[1] ?? 0);
  }

  it('answers 2,000 API reads through the workers without a 503, a burst among them while the primary is too busy to take connections', async () => {
    const readers = 600;
    const agent = new http.Agent({ keepAlive: true, maxFreeSockets: readers });
    let sent = 0;
    const reading = (count: number) => () => sent++ >= count;
    const warm = await load('api', readers, () => apiRead(agent), reading(readers));
    // The clients keep their connections to the workers (as a proxy in front does), the workers
    // let theirs to the primary go: each request of the burst is handed over on a new one, more at
    // once than the primary's queue of connections not yet taken holds while it does not run.
    await sleep(IDLE_TO_PRIMARY_MS + 1_000);
    sent = 0;
    wharf.child.kill('SIGSTOP');
    const burst = load('api', readers, () => apiRead(agent), reading(2_000 - readers));
    await sleep(2_000);
    wharf.child.kill('SIGCONT');
    const outcomes = [...warm, ...(await burst)];
    agent.destroy();
    expect(outcomes).toHaveLength(2_000);
    expect(outcomes.filter((outcome) => outcome.result !== 'ok')).toEqual([]);
  }, 300_000);

  it('answers or resets at once every request in flight when a worker is SIGKILLed, and goes on serving', async () => {
    const kills: number[] = [];
    const agent = new http.Agent({ keepAlive: true });
    let stopped = false;
    const until = () => stopped;
    const running = Promise.all([
      load('site', 4, siteRead, until),
      load('api', 4, () => apiRead(agent), until),
      load('upload', 1, upload, until),
    ]);
    for (let round = 0; round < 3; round++) {
      await sleep(1_500);
      const victim = childPids(wharf.child.pid!)[round % 2]!;
      kills.push(Date.now());
      process.kill(victim, 'SIGKILL');
      await untilWorkersServe(wharf, 2, [victim], 120_000);
    }
    stopped = true;
    const outcomes = (await running).flat();
    agent.destroy();

    // Each succeeded whole, or met a reset: never a 503, wrong bytes or a hang.
    expect(outcomes.filter((outcome) => !['ok', 'connection error'].includes(outcome.result))).toEqual([]);
    // A reset comes from a kill, at once; a read in flight then ends within seconds either way
    // (an upload that went on through the other worker may take longer).
    const soonAfterAKill = (o: Outcome) => kills.some((kill) => o.endedAt >= kill && o.endedAt - kill < 5_000);
    expect(outcomes.filter((o) => o.result === 'connection error' && !soonAfterAKill(o))).toEqual([]);
    const inFlightAtAKill = (o: Outcome) => kills.some((kill) => o.startedAt <= kill && o.endedAt >= kill);
    expect(outcomes.filter((o) => o.kind !== 'upload' && inFlightAtAKill(o) && !soonAfterAKill(o))).toEqual([]);
    for (const release of uploaded) expect((await owner.get(`/api/v1/releases/${release}`)).status).toBe(200);

    // The primary's totals hold what the workers reported: a killed one's last second at most is lost.
    await sleep(2_500);
    const counted = await servedByMetrics();
    const served = outcomes.filter((o) => o.kind === 'site' && o.result === 'ok');
    const unreported = served.filter((o) => kills.some((kill) => o.endedAt > kill - 2_000 && o.endedAt < kill + 1_000));
    expect(counted).toBeLessThanOrEqual(served.length);
    expect(counted).toBeGreaterThanOrEqual(served.length - unreported.length);
    for (let i = 0; i < 20; i++) expect(await siteRead()).toBe('ok');
    for (let attempt = 0; (await servedByMetrics()) < counted + 20; attempt++) {
      expect(attempt).toBeLessThan(100);
      await sleep(100);
    }
    expect(await servedByMetrics()).toBe(counted + 20);

    // Nothing is left in flight in the primary: it drains and exits cleanly.
    wharf.child.kill('SIGTERM');
    expect(await exited(wharf.child)).toBe(0);
  }, 600_000);
});
