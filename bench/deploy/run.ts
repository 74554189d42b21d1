import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startCountingProxy } from './countingProxy.ts';
import { changeOneFile, type GeneratedSite, generateLargeArchive, generateSite } from './generateSite.ts';
import { parallelUploads } from './parallel.ts';
import { untilIdle, watchMemory } from './processMemory.ts';
import {
  kilobytes,
  mebibytes,
  median,
  megabytes,
  milliseconds,
  percentile,
  row,
  runs,
  seconds,
  verdict,
} from './report.ts';
import { rsyncTo, startRsyncDaemon } from './rsync.ts';
import { type CliDeploy, deployWithCli, deployWithTarAndCurl, type Target, uploadArchiveWithCurl } from './uploads.ts';
import { createSite, startBenchServer } from './wharfServer.ts';

/**
 * bench/deploy, the "Measured" of issues 4, 17 and 30, side by side in one run: a fresh deploy of
 * a 5,000-file / 50 MB site with `wharf upload`, with `rsync --fsync` to a daemon on loopback
 * (with and without `-z`) and with `tar czf` + `curl -F`; the redeploy after one file changed; 20 uploads at once while 50 clients read the API; the server's peak memory
 * while it receives a 1 GiB archive. `BENCH_PARTS` (default `sites,parallel,large`) picks some.
 */

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SITE_FILES = 5000;
const SITE_BYTES = 50_000_000;
const LARGE_ARCHIVE_BYTES = 1024 ** 3;
const PARALLEL = {
  uploads: 20,
  files: 300,
  bytes: 3_000_000,
  readers: 50,
  // Each client asks once a second (a console open on a site, a CI polling); 0 asks back to back.
  readEveryMs: Number(process.env.BENCH_READ_EVERY_MS ?? 1000),
  idleSeconds: 5,
  // The 20 uploaders stand for 20 CI machines; here they share the server's CPUs, at the lowest
  // priority so that the server keeps the CPU it would have on a machine of its own (0: as equals).
  clientNiceness: Number(process.env.BENCH_CLIENT_NICE ?? 19),
};
const PARTS = new Set((process.env.BENCH_PARTS ?? 'sites,parallel,large').split(','));

type Timed = { seconds: number; wire: number };
type CliTimed = CliDeploy & { wire: number };

const work = await mkdtemp(path.join(os.tmpdir(), 'wharf-bench-deploy-'));

async function deploysOfTheSite() {
  const server = await startBenchServer();
  // Both uploaders go through the same counting relay, so their bytes on the wire compare.
  const proxy = await startCountingProxy(Number(new URL(server.url).port));
  const rsync = await startRsyncDaemon(work);
  const cliTarget: Target = { url: proxy.url, ...(await createSite(server.url, 'bench-cli')) };
  const tarTarget: Target = { url: proxy.url, ...(await createSite(server.url, 'bench-tar')) };
  // Each deploy starts on an idle server, the last one's variants not this one's cost, and with
  // nothing left to write back: the sites a run generates (100 MB) would otherwise be flushed by
  // the first uploader's fsyncs, as ext4 commits dirty data with its journal, and not by the others.
  const idle = async () => {
    await untilIdle(server.child.pid!);
    execFileSync('sync');
  };
  const withCli = async (site: GeneratedSite, release: string): Promise<CliTimed> => {
    await idle();
    proxy.takeSent();
    const deploy = await deployWithCli(site.root, cliTarget, release);
    return { ...deploy, wire: proxy.takeSent() };
  };
  const withTar = async (site: GeneratedSite, release: string): Promise<Timed> => {
    await idle();
    proxy.takeSent();
    const deploy = await deployWithTarAndCurl(site.root, `${site.root}.tar.gz`, tarTarget, release);
    return { seconds: deploy.seconds, wire: proxy.takeSent() };
  };
  // rsync sends the CLI's folder to a destination of each run that holds its previous state.
  const withRsync = async (site: GeneratedSite, destination: string, compress: boolean) => {
    await idle();
    return rsyncTo(rsync.url, site.root, destination, compress);
  };

  const fresh = { cli: [] as CliTimed[], tar: [] as Timed[], rsync: [] as Timed[], rsyncZ: [] as Timed[] };
  let cliSite: GeneratedSite | undefined;
  let tarSite: GeneratedSite | undefined;
  for (let run = 0; run < RUNS; run++) {
    // New content each run, so each deploy is fresh to the blob store; the order alternates.
    const nextCli = await generateSite(path.join(work, `cli-${run}`), SITE_FILES, SITE_BYTES, 2 * run + 1);
    const nextTar = await generateSite(path.join(work, `tar-${run}`), SITE_FILES, SITE_BYTES, 2 * run + 2);
    if (run % 2 === 0) {
      fresh.cli.push(await withCli(nextCli, `fresh ${run}`));
      fresh.tar.push(await withTar(nextTar, `fresh ${run}`));
    } else {
      fresh.tar.push(await withTar(nextTar, `fresh ${run}`));
      fresh.cli.push(await withCli(nextCli, `fresh ${run}`));
    }
    fresh.rsync.push(await withRsync(nextCli, `plain-${run}`, false));
    fresh.rsyncZ.push(await withRsync(nextCli, `z-${run}`, true));
    for (const old of [cliSite, tarSite]) if (old) await rm(old.root, { recursive: true, force: true });
    cliSite = nextCli;
    tarSite = nextTar;
  }

  const changed = { cli: [] as CliTimed[], tar: [] as Timed[], rsync: [] as Timed[], rsyncZ: [] as Timed[] };
  for (let run = 0; run < RUNS; run++) {
    await changeOneFile(cliSite!);
    await changeOneFile(tarSite!);
    changed.cli.push(await withCli(cliSite!, `one file changed ${run}`));
    changed.tar.push(await withTar(tarSite!, `one file changed ${run}`));
    changed.rsync.push(await withRsync(cliSite!, `plain-${RUNS - 1}`, false));
    changed.rsyncZ.push(await withRsync(cliSite!, `z-${RUNS - 1}`, true));
  }
  rsync.close();
  await proxy.close();
  await server.close();
  return { site: cliSite!, fresh, changed };
}

async function receivingALargeArchive() {
  const archive = path.join(work, 'large.tar.gz');
  await generateLargeArchive(path.join(work, 'large'), archive, LARGE_ARCHIVE_BYTES);
  await rm(path.join(work, 'large'), { recursive: true, force: true });
  // The default limit is exactly 1 GiB, and the archive is a little more with its tar headers.
  const server = await startBenchServer({ WHARF_MAX_ARCHIVE_BYTES: String(2 * 1024 ** 3) });
  const target = { url: server.url, ...(await createSite(server.url, 'bench-large')) };
  const idle = watchMemory(server.child.pid!).stop();
  const watcher = watchMemory(server.child.pid!);
  const uploadSeconds = await uploadArchiveWithCurl(archive, target, 'large');
  const peak = watcher.stop();
  await server.close();
  return { bytes: (await stat(archive)).size, uploadSeconds, idle, peak };
}

console.log(
  `bench/deploy: node ${process.version}, ${os.availableParallelism()} CPUs, ${RUNS} runs of each, WHARF_WORKERS=${process.env.WHARF_WORKERS ?? '(default)'}`,
);
async function reportSites() {
  const { site, fresh, changed } = await deploysOfTheSite();
  const medianOf = (deploys: Timed[]) => median(deploys.map((deploy) => deploy.seconds));
  const wireOf = (deploys: Timed[], unit: (bytes: number) => string) => unit(median(deploys.map((d) => d.wire)));
  const columns = (pick: (kind: Timed[]) => string, of: typeof fresh) =>
    [of.cli, of.rsync, of.rsyncZ, of.tar].map(pick);
  const oneFile = changed.cli.at(-1)!;
  console.log(`\nA site of ${site.files.length + 1} files, ${megabytes(site.bytes)}\n`);
  console.log(row('', 'wharf upload', 'rsync --fsync', 'rsync -z --fsync', 'tar czf + curl -F'));
  console.log(row('Fresh deploy, median', ...columns((kind) => seconds(medianOf(kind)), fresh)));
  console.log(row('  each run (s)', ...columns((kind) => runs(kind.map((d) => d.seconds)), fresh)));
  console.log(row('  on the wire, both ways', ...columns((kind) => wireOf(kind, megabytes), fresh)));
  console.log(row('One file changed, median', ...columns((kind) => seconds(medianOf(kind)), changed)));
  console.log(row('  each run (s)', ...columns((kind) => runs(kind.map((d) => d.seconds)), changed)));
  console.log(row('  on the wire, both ways', ...columns((kind) => wireOf(kind, kilobytes), changed)));
  console.log(row('  request bodies (manifest, file)', kilobytes(oneFile.sentBytes)));
  console.log(row(`  the ${oneFile.uploadedFiles} changed file, uncompressed`, `${oneFile.uploadedBytes} B`));
  const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
  const cliFresh = medianOf(fresh.cli);
  const cliChanged = medianOf(changed.cli);
  const freshWire = median(fresh.cli.map((d) => d.wire));
  const changedWire = median(changed.cli.map((d) => d.wire));
  console.log('');
  console.log(
    `Fresh deploy time ≤ 1.0× rsync --fsync (${ratio(cliFresh, medianOf(fresh.rsync))}): ${verdict(cliFresh <= medianOf(fresh.rsync))}`,
  );
  const rsyncZFreshWire = median(fresh.rsyncZ.map((d) => d.wire));
  console.log(
    `Fresh deploy bytes ≤ rsync -z (${ratio(freshWire, rsyncZFreshWire)}): ${verdict(freshWire <= rsyncZFreshWire)}`,
  );
  const rsyncChanged = medianOf(changed.rsync);
  console.log(
    `One file changed, time ≤ 2× rsync (${ratio(cliChanged, rsyncChanged)}): ${verdict(cliChanged <= 2 * rsyncChanged)}`,
  );
  const rsyncChangedWire = median(changed.rsync.map((d) => d.wire));
  console.log(
    `One file changed, bytes ≤ 2× rsync (${ratio(changedWire, rsyncChangedWire)}): ${verdict(changedWire <= 2 * rsyncChangedWire)}`,
  );
}

async function reportParallel() {
  const server = await startBenchServer();
  const measured = await parallelUploads(server, work, PARALLEL);
  await server.close();
  const uploadP50 = percentile(measured.uploads, 0.5);
  const busyP99 = percentile(measured.busyReads, 0.99);
  console.log(
    `\n${PARALLEL.uploads} uploads at once (wharf upload, ${PARALLEL.files} files / ${megabytes(PARALLEL.bytes)} each, different sites, uploaders at nice ${PARALLEL.clientNiceness}), ${PARALLEL.readers} clients reading GET /api/v1/sites/{id}/branches, each every ${PARALLEL.readEveryMs} ms:`,
  );
  console.log(
    `  uploads: p50 ${seconds(uploadP50)}, slowest ${seconds(Math.max(...measured.uploads))} (${runs(measured.uploads.sort((a, b) => a - b))})`,
  );
  for (const [label, times] of [
    [`API alone (${PARALLEL.idleSeconds} s)`, measured.idleReads],
    ['API during the uploads', measured.busyReads],
  ] as const) {
    console.log(
      `  ${label}: ${times.length} requests, p50 ${milliseconds(percentile(times, 0.5))}, p99 ${milliseconds(percentile(times, 0.99))}`,
    );
  }
  console.log(`Upload p50 at most 2 s: ${verdict(uploadP50 <= 2)}`);
  console.log(`API p99 at most 100 ms during the uploads: ${verdict(busyP99 <= 100)}`);
}

async function reportLargeArchive() {
  const large = await receivingALargeArchive();
  const peaks = [...large.peak.highWaterBytes.values()];
  const worst = Math.max(...peaks);
  console.log(`\nThe server receiving a ${mebibytes(large.bytes)} archive (curl -F), ${seconds(large.uploadSeconds)}:`);
  console.log(`  RSS of its processes before the upload: ${megabytes(large.idle.sampledTreeBytes)}`);
  console.log(`  peak RSS of each process (VmHWM): ${peaks.map(megabytes).join(', ')}`);
  console.log(`  peak RSS of its processes together (sampled every 50 ms): ${megabytes(large.peak.sampledTreeBytes)}`);
  console.log(`Peak under 200 MB per process: ${verdict(worst < 200_000_000)}`);
}

if (PARTS.has('sites')) await reportSites();
if (PARTS.has('parallel')) await reportParallel();
if (PARTS.has('large')) await reportLargeArchive();
await rm(work, { recursive: true, force: true });
