import { execFile, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import {
  connectToGitServer,
  deliverAsGitHub,
  expectStatus,
  makeBaseImages,
  NODE_IMAGE,
  podmanWorks,
  siteRequest,
  startGitServer,
  TestClient,
} from '@wharf/server/testing';
import { median, row, runs, seconds, verdict } from '../deploy/report.ts';
import { deployWithCli } from '../deploy/uploads.ts';
import { createSite, PASSWORD, startBenchServer, USER } from '../deploy/wharfServer.ts';
import { siteFiles, vendoredDependency } from './site.ts';

/**
 * bench/build, the "Measured" of issue 32: the time from a push's webhook arriving to the first
 * byte of the new page served, for a small static site built in a container, with the site's
 * build cache cold (cleared) and warm; beside it, in the same run, the same install and build
 * command run on the host, and that plus `wharf upload` of its output.
 */

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const TARGET_WARM_OVERHEAD_S = 3;

if (!podmanWorks()) {
  console.error('bench/build needs podman (apt-get install podman runc slirp4netns)');
  process.exit(1);
}
await makeBaseImages();
const git = await startGitServer('docs');
const dependency = vendoredDependency();
await git.commit('main', 'Edition 0', { ...dependency, ...siteFiles('Edition 0') });
const server = await startBenchServer({
  WHARF_BUILD_RUNTIME: 'podman',
  WHARF_BUILD_PULL: 'never',
  WHARF_BUILD_IMAGES: 'docker.io/library/node:*',
  WHARF_BUILD_ALLOWED_PRIVATE: '127.0.0.1',
  WHARF_EXTRA_CA_CERTS: git.caFile,
});
const port = Number(new URL(server.url).port);
const { siteId, token } = await createSite(server.url, 'bench-docs');
const owner = await new TestClient(server.url).signIn(USER, PASSWORD);
const site = `/api/v1/sites/${siteId}`;
const { secret } = await connectToGitServer(owner, siteId, git);
const siteHost = `bench-docs.localhost`;
let edition = 0;

/** Pushes a new edition and delivers GitHub's webhook for it; answers the seconds until its page is served. */
async function pushToLive(cold: boolean) {
  if (cold) expectStatus(await owner.delete(`${site}/build-cache`), 204);
  edition++;
  const text = `Edition ${edition}`;
  const head = await git.commit('main', text, siteFiles(text));
  const push = { ref: 'refs/heads/main', after: head, head_commit: { id: head, message: text } };
  const startedAt = performance.now();
  const { status, answer } = await deliverAsGitHub(`${server.url}${site}/repository/webhook`, secret, 'push', push);
  if (status !== 202) throw new Error(`the webhook answered ${status}: ${JSON.stringify(answer)}`);
  const { builds } = answer;
  for (;;) {
    // Pretty URLs: `/page-2.html` answers a redirect to this.
    const page = await siteRequest(port, siteHost, '/page-2');
    if (page.text.includes(text)) break;
    const build = expectStatus(await owner.get(`${site}/builds/${builds[0]}`), 200);
    if (build.state === 'failed') throw new Error(`the build failed: ${build.error}`);
    await sleep(20);
  }
  const live = (performance.now() - startedAt) / 1000;
  const build = expectStatus(await owner.get(`${site}/builds/${builds[0]}`), 200);
  const phases = Object.fromEntries(
    build.phases.map((phase: { name: string; durationMs: number }) => [phase.name, phase.durationMs / 1000]),
  );
  return { live, phases };
}

/** The same work on the host: install and build in a checkout, then `wharf upload` of its output. */
async function onTheHost(checkout: string, cold: boolean) {
  const env = { ...process.env, CI: 'true' };
  const timed = (command: string, args: string[]) => {
    const startedAt = performance.now();
    const done = spawnSync(command, args, { cwd: checkout, env, stdio: ['ignore', 'ignore', 'inherit'] });
    if (done.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${done.status}`);
    return (performance.now() - startedAt) / 1000;
  };
  // The edition the build just published, fetched before the clock starts.
  await gitOnHost('pull', '--quiet', '--ff-only');
  if (cold) await rm(path.join(checkout, 'node_modules'), { recursive: true, force: true });
  const install = timed('npm', cold ? ['ci', '--no-audit', '--no-fund'] : ['install', '--no-audit', '--no-fund']);
  const build = timed('npm', ['run', 'build']);
  const upload = await deployWithCli(
    path.join(checkout, 'dist'),
    { url: server.url, siteId, token },
    `host ${edition}`,
  );
  return { build: install + build, withUpload: install + build + upload.seconds };
}

console.log(
  `bench/build: node ${process.version}, ${os.availableParallelism()} CPUs, ${RUNS} runs of each, image ${NODE_IMAGE}`,
);
const checkout = await mkdtemp(path.join(os.tmpdir(), 'wharf-bench-build-'));
// Not a synchronous child: the git server answering it runs in this process.
const gitOnHost = (...args: string[]) =>
  promisify(execFile)('git', args, { cwd: checkout, env: { ...process.env, GIT_SSL_CAINFO: git.caFile } });
await gitOnHost('clone', '--quiet', '--branch', 'main', git.url, '.');
const results = {
  cold: [] as Awaited<ReturnType<typeof pushToLive>>[],
  warm: [] as Awaited<ReturnType<typeof pushToLive>>[],
};
const onHost = {
  cold: [] as Awaited<ReturnType<typeof onTheHost>>[],
  warm: [] as Awaited<ReturnType<typeof onTheHost>>[],
};
// A first build fills the cache the warm runs start from.
await pushToLive(true);
for (let run = 0; run < RUNS; run++) {
  for (const kind of ['cold', 'warm'] as const) {
    results[kind].push(await pushToLive(kind === 'cold'));
    onHost[kind].push(await onTheHost(checkout, kind === 'cold'));
  }
}
await server.close();
await git.close();
await rm(checkout, { recursive: true, force: true });

const PHASES = ['clone', 'restoreCache', 'install', 'build', 'upload', 'saveCache'];
console.log(`\nA site of 40 Markdown pages rendered with marked (installed from a vendored tarball)\n`);
console.log(row('', 'cold cache', 'warm cache'));
const of = (kind: 'cold' | 'warm', pick: (r: (typeof results)['cold'][number]) => number) => results[kind].map(pick);
console.log(
  row('Push to live, median', ...(['cold', 'warm'] as const).map((k) => seconds(median(of(k, (r) => r.live))))),
);
console.log(row('  each run (s)', ...(['cold', 'warm'] as const).map((k) => runs(of(k, (r) => r.live)))));
for (const phase of PHASES)
  console.log(
    row(
      `  ${phase}, median`,
      ...(['cold', 'warm'] as const).map((k) => seconds(median(of(k, (r) => r.phases[phase] ?? 0)))),
    ),
  );
console.log(
  row(
    'Host: install + build, median',
    ...(['cold', 'warm'] as const).map((k) => seconds(median(onHost[k].map((h) => h.build)))),
  ),
);
console.log(
  row(
    'Host: + wharf upload, median',
    ...(['cold', 'warm'] as const).map((k) => seconds(median(onHost[k].map((h) => h.withUpload)))),
  ),
);
const overhead = (kind: 'cold' | 'warm') => median(of(kind, (r) => r.live)) - median(onHost[kind].map((h) => h.build));
console.log(row('Overhead over the host build', ...(['cold', 'warm'] as const).map((k) => seconds(overhead(k)))));
console.log(
  `\nWarm-cache overhead ${seconds(overhead('warm'))}: ${verdict(overhead('warm') < TARGET_WARM_OVERHEAD_S)} (target under ${TARGET_WARM_OVERHEAD_S} s)`,
);
