// The Wharf edge against nginx on the same files, side by side: `npx tsx bench/edge/run.ts --help`.
import { access, chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { answerKey, fileHeaders, startBareNode } from './bareNode.ts';
import { type BenchCertificate, benchCertificate, TLS_HOST } from './certificate.ts';
import { freePort, request, stop, type Tls } from './http.ts';
import { BRANCHES } from './manySites.ts';
import {
  fileCases,
  GZIP,
  type HttpsRows,
  measureFiles,
  measureHttps,
  measureMemory,
  measurePasswords,
  type Plan,
} from './measure.ts';
import { processTreeMemory } from './memory.ts';
import { NGINX, startNginx } from './nginx.ts';
import { topSelfTime } from './profile.ts';
import { filesTable, memoryTable, passwordTable, profileTable, rulesTable, targetsTable } from './report.ts';
import { measureRules } from './rules.ts';
import { type BenchFile, benchFiles, writeSiteFiles } from './siteFiles.ts';
import { type BenchSite, createBenchSite, startWharf, type WharfServer } from './wharf.ts';
import { WRK } from './wrk.ts';

const { values: options } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    threads: { type: 'string', default: '2' },
    connections: { type: 'string', default: '64' },
    rounds: { type: 'string', default: '3' },
    workers: { type: 'string' },
    sites: { type: 'string', default: '10000' },
    profile: { type: 'string' },
    parts: { type: 'string', default: 'http,https,passwords,rules' },
    files: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});
if (options.help) {
  console.log(`npx tsx bench/edge/run.ts [options]
  --seconds 10      length of each wrk run
  --threads 2       wrk threads
  --connections 64  wrk connections
  --rounds 3        runs of each case, alternating the servers; the tables show the medians
  --workers N       WHARF_WORKERS of the Wharf under test (default: Wharf's own, one per CPU)
  --sites 10000     sites (× ${BRANCHES.length} branches) added for the memory measure; 0 skips it
  --parts LIST      what to measure besides memory, of http,https,passwords,rules (default: all four)
  --files LIST      the files of the HTTP rows, e.g. index.html (default: all; app.js adds its gzip row)
  --profile DIR     write CPU profiles of the Wharf processes (node --cpu-prof) and of the bare Node
                    cluster into DIR; print the functions of most self time in their workers`);
  process.exit(0);
}
const load = {
  threads: Number(options.threads),
  connections: Number(options.connections),
  seconds: Number(options.seconds),
};
const plan: Plan = { load, warmUp: { ...load, seconds: Math.min(3, load.seconds) }, rounds: Number(options.rounds) };
const parts = new Set(options.parts.split(','));
const onlyFiles = options.files?.split(',');
const TLS: Tls = { servername: TLS_HOST };
/** A site's Host header with another port: the port plays no part in routing, but says which listener. */
const hostOn = (host: string, port: number) => host.replace(/:\d+$/, `:${port}`);

/** Both servers must answer the same bytes before their speed means anything. */
async function checkSameContent(nginxPort: number, wharf: WharfServer, site: BenchSite, files: BenchFile[]) {
  for (const file of files) {
    const answers = {
      nginx: await request(nginxPort, 'localhost', `/${file.name}`),
      Wharf: await request(wharf.port, site.host, `/${file.name}`),
      'Wharf, private branch': await request(wharf.port, site.privateHost, `/${file.name}`, {
        authorization: site.credential,
      }),
    };
    for (const [server, answer] of Object.entries(answers)) {
      if (answer.status !== 200 || !answer.body.equals(file.content))
        throw new Error(`${server} did not serve ${file.name}: ${answer.status}, ${answer.body.length} bytes`);
    }
  }
  const script = files[1]!;
  for (const answer of [
    await request(nginxPort, 'localhost', `/${script.name}`, GZIP),
    await variantsMade(() => request(wharf.port, site.host, `/${script.name}`, GZIP)),
  ]) {
    if (answer.headers['content-encoding'] !== 'gzip' || !gunzipSync(answer.body).equals(script.content))
      throw new Error(`${script.name} was not served gzip-encoded`);
  }
}

/**
 * Wharf's answer once the stored variants of a new file exist: a background job makes them after
 * the upload, later on a busy machine, and until then the file goes unencoded.
 */
async function variantsMade(ask: () => ReturnType<typeof request>, timeoutMs = 120_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const answer = await ask();
    if (answer.headers['content-encoding'] !== undefined || Date.now() > until) return answer;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Over TLS, the three servers answer the 2 KB page with the same bytes. */
async function checkSameContentTls(ports: { nginx: number; wharf: number }, host: string, file: BenchFile) {
  const answers = {
    'nginx over TLS': await request(ports.nginx, 'localhost', `/${file.name}`, {}, TLS),
    'Wharf over TLS': await request(ports.wharf, host, `/${file.name}`, {}, TLS),
  };
  for (const [server, answer] of Object.entries(answers)) {
    if (answer.status !== 200 || !answer.body.equals(file.content))
      throw new Error(`${server} did not serve ${file.name}: ${answer.status}, ${answer.body.length} bytes`);
  }
}

/** The bare Node cluster answers what Wharf answers: the same status, headers and bytes. */
async function checkBareNode(ports: { bare: number; wharf: number }, host: string, files: BenchFile[], tls?: Tls) {
  for (const c of fileCases(files)) {
    const bare = await request(ports.bare, host, c.path, c.headers, tls);
    const ours = await request(ports.wharf, host, c.path, c.headers, tls);
    const same =
      bare.status === ours.status &&
      bare.body.equals(ours.body) &&
      JSON.stringify(fileHeaders(bare)) === JSON.stringify(fileHeaders(ours));
    if (!same) throw new Error(`bare Node did not answer ${answerKey(c.path, c.headers)} as Wharf did`);
  }
}

/** The baseline and the load come from Debian's packages; say so instead of failing on a spawn. */
async function checkTools() {
  for (const tool of [NGINX, WRK]) {
    await access(tool).catch(() => {
      console.error(`${tool} is missing: apt-get install nginx-light wrk`);
      process.exit(1);
    });
  }
}

type Bare = Awaited<ReturnType<typeof startBareNode>>;

interface Run {
  dir: string;
  files: BenchFile[];
  certificate: BenchCertificate;
  nginx: { port: number; tlsPort: number; pid: number | undefined };
  workers: number;
  /** Every process started, to stop at the end and to tell primaries from workers in the profiles. */
  started: { wharf: WharfServer[]; bare: Bare[] };
}

const nodeArgs = (server: string) =>
  options.profile ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(options.profile, server)}`] : [];

/** The HTTP rows: each file from nginx, bare Node and Wharf. */
async function httpRows(run: Run, wharf: WharfServer, site: BenchSite) {
  const files = onlyFiles ? run.files.filter((file) => onlyFiles.includes(file.name)) : run.files;
  const bare = await startBareNode(run.dir, run.workers, wharf.port, site.host, fileCases(files), nodeArgs('bare'));
  run.started.bare.push(bare);
  try {
    await checkBareNode({ bare: bare.port, wharf: wharf.port }, site.host, files);
    const servers = {
      nginx: { port: run.nginx.port, pid: run.nginx.pid },
      bare: { port: bare.port, pid: bare.child.pid },
    };
    return await measureFiles(plan, servers, wharf, site, files);
  } finally {
    await stop(bare.child);
  }
}

/**
 * The HTTPS rows: Wharf started again on the same database with its TLS listener (its plain HTTP
 * then redirects, so it cannot serve the other rows), and bare Node over node:https.
 */
async function httpsRows(run: Run, before: WharfServer, site: BenchSite): Promise<HttpsRows> {
  const wharf = await startWharf(before.dataDir, options.workers, nodeArgs('wharf'), {
    https: run.certificate,
    again: before,
  });
  run.started.wharf.push(wharf);
  try {
    const page = run.files[0]!;
    const host = hostOn(site.host, wharf.httpsPort!);
    await checkSameContentTls({ nginx: run.nginx.tlsPort, wharf: wharf.httpsPort! }, host, page);
    const request = [{ path: `/${page.name}`, headers: {} }];
    const bare = await startBareNode(
      run.dir,
      run.workers,
      wharf.httpsPort!,
      host,
      request,
      nodeArgs('bare'),
      run.certificate,
    );
    run.started.bare.push(bare);
    try {
      await checkBareNode({ bare: bare.port, wharf: wharf.httpsPort! }, host, [page], TLS);
      const servers = {
        nginx: { port: run.nginx.tlsPort, pid: run.nginx.pid },
        bare: { port: bare.port, pid: bare.child.pid },
        wharf: { port: wharf.httpsPort!, pid: wharf.child.pid },
      };
      return await measureHttps(plan, servers, host, page);
    } finally {
      await stop(bare.child);
    }
  } finally {
    await stop(wharf.child);
  }
}

/** The functions of most self time in the workers of each server, from the profiles their processes wrote. */
async function printProfiles(started: Run['started']) {
  const title = 'function (self time, workers together)';
  for (const [name, dir, primaries] of [
    ['Wharf', 'wharf', started.wharf.map((w) => w.child.pid)],
    ['bare Node', 'bare', started.bare.map((b) => b.child.pid)],
  ] as const) {
    const profile = await topSelfTime(path.resolve(options.profile!, dir), primaries);
    console.log(
      `\nWhere ${name}'s time went: ${profile.profiles} profiles, the whole run, share of the time not idle\n`,
    );
    console.log(profileTable(title, profile));
  }
}

async function main() {
  await checkTools();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'wharf-bench-edge-'));
  // nginx's workers drop to an unprivileged user when started as root: they must read the files.
  await chmod(dir, 0o755);
  const files = benchFiles();
  const { root, archive } = await writeSiteFiles(dir, files);
  const certificate = benchCertificate(dir);
  const nginxPorts = { port: await freePort(), tlsPort: await freePort() };
  const nginx = await startNginx(dir, root, nginxPorts.port, { ...certificate, port: nginxPorts.tlsPort });
  const started: Run['started'] = { wharf: [], bare: [] };
  let wharf: WharfServer | undefined;
  try {
    wharf = await startWharf(path.join(dir, 'wharf'), options.workers, nodeArgs('wharf'));
    started.wharf.push(wharf);
    const site = await createBenchSite(wharf, archive);
    await checkSameContent(nginxPorts.port, wharf, site, files);
    const workers = processTreeMemory(wharf.child.pid!).length - 1;
    const run: Run = { dir, files, certificate, nginx: { ...nginxPorts, pid: nginx.pid }, workers, started };
    const fileRows = parts.has('http') ? await httpRows(run, wharf, site) : [];
    const passwords = parts.has('passwords') ? await measurePasswords(plan, wharf, site) : null;
    const rules = parts.has('rules') ? await measureRules(plan, wharf, site, dir, files) : null;
    let https: HttpsRows | null = null;
    if (parts.has('https')) {
      await stop(wharf.child);
      https = await httpsRows(run, wharf, site);
      // Back to plain HTTP for the memory measure, on the same database.
      wharf = await startWharf(wharf.dataDir, options.workers, nodeArgs('wharf'), { again: wharf });
      started.wharf.push(wharf);
    }
    const sites = Number(options.sites);
    const memory = sites > 0 ? await measureMemory(plan, wharf, site, sites) : null;

    const runs = `wrk -t${load.threads} -c${load.connections} -d${load.seconds}s --latency, median of ${plan.rounds} runs`;
    console.log(`\nWharf edge vs nginx and bare Node on loopback, ${os.cpus().length} CPUs — ${runs}`);
    console.log(
      `Wharf: ${workers > 0 ? `${workers} workers + primary` : 'one process'}, SQLite; nginx: 2 workers, sendfile, gzip_static; ` +
        `bare Node: ${workers > 0 ? `cluster of ${workers}` : 'one process'}, node:http, Wharf's answers from memory`,
    );
    if (https)
      console.log(
        'HTTPS: one self-signed EC P-256 certificate for all three, TLS 1.3 as negotiated; nginx with ssl_session_cache ' +
          'shared:SSL:10m, bare Node on node:https; new connections: Connection: close, a TLS handshake per request (wrk resumes some)',
      );
    console.log('');
    console.log(filesTable([...fileRows, ...(https ? [https.keepAlive, https.newConnections] : [])]));
    if (passwords) {
      console.log('\nPassword-protected branch (Wharf, index.html)\n');
      console.log(passwordTable(passwords.open, passwords.locked));
    }
    if (rules) {
      console.log('\nRelease rules (_redirects and _headers), Wharf\n');
      console.log(rulesTable(rules));
    }
    if (memory) {
      console.log('\nRouting table\n');
      console.log(memoryTable(memory));
    }
    console.log('\nTargets (issues 5 and 14)\n');
    console.log(targetsTable(fileRows, https, passwords, memory));
  } finally {
    if (wharf) await stop(wharf.child);
    await stop(nginx, 'SIGQUIT');
    await rm(dir, { recursive: true, force: true });
  }
  // The profiles are written as the processes exit.
  if (options.profile) await printProfiles(started);
}

await main();
