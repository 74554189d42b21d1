import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freePort } from '../../test/harness.ts';
import { exited, startWharf, stopWharf, waitForApi } from '../../test/processes.ts';
import { wholeBody } from '../../test/wholeAnswer.ts';
import { randomString } from '../lib/ids.ts';

/** What a client behind nobody's proxy may write into its request to pass for someone else. */
const SPOOFED = {
  'x-forwarded-for': '203.0.113.7',
  'x-wharf-peer-address': '198.51.100.66',
  'x-forwarded-host': 'sites.example',
  'x-forwarded-proto': 'https',
};

/** An API request on a connection of its own: the kernel picks the worker that accepts it. */
function apiGet(port: number, urlPath: string, headers: Record<string, string>) {
  return new Promise<number>((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path: urlPath, headers, agent: false }, (res) => {
      wholeBody(res).then(() => resolve(res.statusCode ?? 0), reject);
    });
    request.on('error', reject);
  });
}

/** The clients the primary logged for requests sent through every worker with spoofed headers. */
async function clientsSeenByThePrimary(wharf: Awaited<ReturnType<typeof startWharf>>, port: number) {
  const probes = Array.from({ length: 4 }, () => randomString(12));
  for (const probe of probes) expect(await apiGet(port, `/api/v1/system/info?probe=${probe}`, SPOOFED)).toBe(200);
  const lines = await vi.waitFor(
    () => {
      const logged = wharf
        .stdout()
        .split('\n')
        .filter((line) => line.includes('request completed') && probes.some((probe) => line.includes(probe)));
      expect(logged).toHaveLength(probes.length);
      return logged;
    },
    { timeout: 20_000, interval: 100 },
  );
  return lines.map((line) => {
    const { req } = JSON.parse(line);
    return { address: req.remoteAddress, host: req.host };
  });
}

describe.each([
  { setting: undefined, client: '127.0.0.1', host: (port: number) => `127.0.0.1:${port}` },
  { setting: '127.0.0.1', client: '203.0.113.7', host: () => 'sites.example' },
])('the client address in a cluster with WHARF_TRUST_PROXY=$setting', ({ setting, client, host }) => {
  let dataDir: string;
  let port: number;
  let wharf: Awaited<ReturnType<typeof startWharf>>;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'wharf-trust-'));
    port = await freePort();
    wharf = await startWharf(dataDir, port, {
      WHARF_WORKERS: '2',
      LOG_LEVEL: 'info',
      ...(setting ? { WHARF_TRUST_PROXY: setting } : {}),
    });
    await waitForApi(`http://127.0.0.1:${port}`);
  });
  afterAll(async () => {
    if (wharf) await stopWharf(wharf);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('reaches the primary as the worker decided it, never as a header the client wrote', async () => {
    const seen = await clientsSeenByThePrimary(wharf, port);
    expect(seen).toEqual(Array(4).fill({ address: client, host: host(port) }));
  });
});

describe('WHARF_TRUST_PROXY at start', () => {
  it('refuses a value that is neither a number of proxies nor addresses, naming the variable', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'wharf-trust-'));
    try {
      const wharf = await startWharf(dataDir, await freePort(), { WHARF_TRUST_PROXY: 'everyone' });
      expect(await exited(wharf.child)).toBe(1);
      expect(wharf.stderr()).toContain('WHARF_TRUST_PROXY must be off, a number of proxies');
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
