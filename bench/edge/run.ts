// The edge against nginx, side by side on loopback: `npm run bench:edge -w @wharf/bench -- --help`.
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { freePort, request, stop } from './http.ts';
import { addSites, BRANCHES, waitUntilServed } from './manySites.ts';
import { megabytes, processTreeMemory } from './memory.ts';
import { startNginx } from './nginx.ts';
import { type FileRow, filesTable, type MemoryReport, memoryTable, passwordTable } from './report.ts';
import { type BenchFile, benchFiles, writeSiteFiles } from './siteFiles.ts';
import { type BenchSite, createBenchSite, startWharf, type WharfServer } from './wharf.ts';
import { type Load, runWrk } from './wrk.ts';

const { values: options } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    threads: { type: 'string', default: '2' },
    connections: { type: 'string', default: '64' },
    workers: { type: 'string' },
    sites: { type: 'string', default: '10000' },
    help: { type: 'boolean', default: false },
  },
});
if (options.help) {
  console.log(`npx tsx bench/edge/run.ts [--seconds 10] [--threads 2] [--connections 64] [--workers N] [--sites 10000]
  --workers   WHARF_WORKERS for the Wharf under test (default: Wharf's own default)
  --sites     sites (× ${BRANCHES.length} branches) added for the memory measure; 0 skips it`);
  process.exit(0);
}
const load: Load = {
  threads: Number(options.threads),
  connections: Number(options.connections),
  seconds: Number(options.seconds),
};
const warmUp: Load = { ...load, seconds: Math.min(3, load.seconds) };
const GZIP = { 'Accept-Encoding': 'gzip' };

/** Both servers must answer the same bytes before their speed means anything. */
async function checkSameContent(nginxPort: number, wharf: WharfServer, site: BenchSite, files: BenchFile[]) {
  for (const file of files) {
    for (const [name, answer] of [
      ['nginx', await request(nginxPort, 'localhost', `/${file.name}`)],
      ['Wharf', await request(wharf.port, site.host, `/${file.name}`)],
      [
        'Wharf private',
        await request(wharf.port, site.privateHost, `/${file.name}`, { authorization: site.credential }),
      ],
    ] as const) {
      if (answer.status !== 200 || !answer.body.equals(file.content))
        throw new Error(`${name} did not serve ${file.name}: ${answer.status} ${answer.body.length} bytes`);
    }
  }
  const nginxGzip = await request(nginxPort, 'localhost', '/app.js', GZIP);
  const wharfGzip = await request(wharf.port, site.host, '/app.js', GZIP);
  for (const answer of [nginxGzip, wharfGzip]) {
    if (answer.headers['content-encoding'] !== 'gzip' || !gunzipSync(answer.body).equals(files[1]!.content))
      throw new Error('app.js was not served gzip-encoded');
  }
}

async function measure(port: number, urlPath: string, headers: Record<string, string>) {
  await runWrk(warmUp, port, urlPath, headers);
  const result = await runWrk(load, port, urlPath, headers);
  if (result.failures > 0) throw new Error(`${result.failures} failed requests for ${urlPath} on port ${port}`);
  return result;
}

async function measureFiles(nginxPort: number, wharf: WharfServer, site: BenchSite, files: BenchFile[]) {
  const rows: FileRow[] = [];
  const cases = [
    ...files.map((file) => ({ label: file.label, path: `/${file.name}`, headers: {} })),
    { label: `${files[1]!.label}, gzip`, path: `/${files[1]!.name}`, headers: GZIP },
  ];
  for (const c of cases) {
    process.stderr.write(`measuring ${c.label}…\n`);
    const nginx = await measure(nginxPort, c.path, { Host: 'localhost', ...c.headers });
    const wharfResult = await measure(wharf.port, c.path, { Host: site.host, ...c.headers });
    rows.push({ label: c.label, nginx, wharf: wharfResult });
  }
  return rows;
}

async function measurePasswords(wharf: WharfServer, site: BenchSite) {
  process.stderr.write('measuring the password-protected branch…\n');
  const open = await measure(wharf.port, '/index.html', { Host: site.host });
  const locked = await measure(wharf.port, '/index.html', { Host: site.privateHost, Authorization: site.credential });
  return { open, locked };
}

function memoryByProcess(pid: number) {
  return new Map(processTreeMemory(pid).map((p) => [p.pid, p.rssBytes]));
}

async function measureMemory(wharf: WharfServer, site: BenchSite, sites: number): Promise<MemoryReport> {
  process.stderr.write(`measuring memory with ${sites} more sites…\n`);
  const mainPid = wharf.child.pid!;
  const before = await measure(wharf.port, '/index.html', { Host: site.host });
  await sleep(2000);
  const rssBefore = memoryByProcess(mainPid);
  const started = Date.now();
  await addSites(wharf.dataDir, site, sites);
  await waitUntilServed(wharf.port, sites);
  const loadSeconds = (Date.now() - started) / 1000;
  const after = await measure(wharf.port, '/index.html', { Host: site.host });
  await sleep(2000);
  const rssAfter = memoryByProcess(mainPid);
  return {
    sites,
    branches: BRANCHES.length,
    processes: [...rssBefore].map(([pid, rss]) => ({
      name: pid === mainPid ? 'main' : `worker ${pid}`,
      beforeMb: megabytes(rss),
      afterMb: megabytes(rssAfter.get(pid) ?? 0),
    })),
    before,
    after,
    loadSeconds,
  };
}

async function main() {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'wharf-bench-edge-'));
  // nginx's workers drop to an unprivileged user when started as root: they must read the files.
  await chmod(dir, 0o755);
  const files = benchFiles();
  const { root, archive } = await writeSiteFiles(dir, files);
  const nginxPort = await freePort();
  const nginx = await startNginx(dir, root, nginxPort);
  let wharf: WharfServer | undefined;
  try {
    wharf = await startWharf(path.join(dir, 'wharf'), options.workers);
    const site = await createBenchSite(wharf, archive);
    await checkSameContent(nginxPort, wharf, site, files);
    const fileRows = await measureFiles(nginxPort, wharf, site, files);
    const passwords = await measurePasswords(wharf, site);
    const sites = Number(options.sites);
    const memory = sites > 0 ? await measureMemory(wharf, site, sites) : null;
    const workers = processTreeMemory(wharf.child.pid!).length - 1;
    console.log(
      `\nWharf edge vs nginx — wrk -t${load.threads} -c${load.connections} -d${load.seconds}s --latency, loopback, ${os.cpus().length} CPUs`,
    );
    console.log(
      `Wharf: ${workers > 0 ? `${workers} workers` : 'one process'}, SQLite; nginx: 2 workers, sendfile, gzip_static\n`,
    );
    console.log(filesTable(fileRows));
    console.log('\nPassword-protected branch (Wharf, index.html)\n');
    console.log(passwordTable(passwords.open, passwords.locked));
    if (memory) {
      console.log('\nRouting table memory\n');
      console.log(memoryTable(memory));
    }
  } finally {
    if (wharf) await stop(wharf.child);
    await stop(nginx, 'SIGQUIT');
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
