import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { generateSite } from './generateSite.ts';
import { deployWithCli, type Target } from './uploads.ts';
import { type BenchServer, createSite } from './wharfServer.ts';

/**
 * Reads the API until stopped, one request every `everyMs` (right after the answer when it came
 * later; 0: back to back), recording each request's time in milliseconds.
 */
function readApi(url: string, target: Target, everyMs: number, times: number[]) {
  let stopped = false;
  const loop = (async () => {
    // Spread over the interval, so the clients do not all ask at the same moment.
    await sleep(Math.random() * everyMs);
    while (!stopped) {
      const startedAt = performance.now();
      const answer = await fetch(`${url}/api/v1/sites/${target.siteId}/branches`, {
        headers: { authorization: `Bearer ${target.token}` },
      });
      await answer.arrayBuffer();
      if (!answer.ok) throw new Error(`GET /api/v1/sites/${target.siteId}/branches answered ${answer.status}`);
      const took = performance.now() - startedAt;
      times.push(took);
      if (took < everyMs) await sleep(everyMs - took);
    }
  })();
  return async () => {
    stopped = true;
    await loop;
  };
}

async function readersDuring<T>(
  url: string,
  targets: Target[],
  readers: { count: number; everyMs: number },
  work: () => Promise<T>,
) {
  const times: number[] = [];
  const stops = Array.from({ length: readers.count }, (_, index) =>
    readApi(url, targets[index % targets.length]!, readers.everyMs, times),
  );
  const result = await work();
  await Promise.all(stops.map((stop) => stop()));
  return { result, times };
}

export interface ParallelUploads {
  /** Seconds of each upload, process start to exit. */
  uploads: number[];
  /** Milliseconds of each API read while nothing else ran, and while the uploads ran. */
  idleReads: number[];
  busyReads: number[];
}

/**
 * `uploads` different sites of `files` files each, uploaded at once by as many `wharf upload`
 * processes, while `readers` clients read the API (`GET /api/v1/sites/{id}/branches`, as
 * `wharf status` does), each once every `readEveryMs`; before that, the same readers alone for a
 * few seconds, as the baseline of the API's latency.
 */
export async function parallelUploads(
  server: BenchServer,
  work: string,
  options: {
    uploads: number;
    files: number;
    bytes: number;
    readers: number;
    readEveryMs: number;
    idleSeconds: number;
    /** The uploading processes' `nice` value. */
    clientNiceness: number;
  },
): Promise<ParallelUploads> {
  const targets: Target[] = [];
  const folders: string[] = [];
  for (let index = 0; index < options.uploads; index++) {
    targets.push({ url: server.url, ...(await createSite(server.url, `parallel-${index}`)) });
    const site = await generateSite(path.join(work, `parallel-${index}`), options.files, options.bytes, 100 + index);
    folders.push(site.root);
  }
  const readers = { count: options.readers, everyMs: options.readEveryMs };
  const idle = await readersDuring(server.url, targets, readers, () => sleep(options.idleSeconds * 1000));
  const busy = await readersDuring(server.url, targets, readers, () =>
    Promise.all(
      folders.map((folder, index) => deployWithCli(folder, targets[index]!, 'parallel', options.clientNiceness)),
    ),
  );
  return {
    uploads: busy.result.map((deploy) => deploy.seconds),
    idleReads: idle.times,
    busyReads: busy.times,
  };
}
