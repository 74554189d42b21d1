// The Wharf edge against nginx on the same files, side by side: `npx tsx bench/edge/run.ts --help`.
import { access, chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { answerKey, fileHeaders, startBareNode } from './bareNode.ts';
import { freePort, request, stop } from './http.ts';
import { BRANCHES } from './manySites.ts';
import { fileCases, GZIP, measureFiles, measureMemory, measurePasswords, type Plan } from './measure.ts';
import { processTreeMemory } from './memory.ts';
import { NGINX, startNginx } from './nginx.ts';
import { topSelfTime } from './profile.ts';
import { filesTable, memoryTable, passwordTable, profileTable, targetsTable } from './report.ts';
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
    await request(wharf.port, site.host, `/${script.name}`, GZIP),
  ]) {
    if (answer.headers['content-encoding'] !== 'gzip' || !gunzipSync(answer.body).equals(script.content))
      throw new Error(`${script.name} was not served gzip-encoded`);
  }
}

/** The bare Node cluster answers what Wharf answers: the same status, headers and bytes. */
async function checkBareNode(barePort: number, wharf: WharfServer, site: BenchSite, files: BenchFile[]) {
  for (const c of fileCases(files)) {
    const bare = await request(barePort, site.host, c.path, c.headers);
    const ours = await request(wharf.port, site.host, c.path, c.headers);
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

async function main() {
  await checkTools();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'wharf-bench-edge-'));
  // nginx's workers drop to an unprivileged user when started as root: they must read the files.
  await chmod(dir, 0o755);
  const files = benchFiles();
  const { root, archive } = await writeSiteFiles(dir, files);
  const nginxPort = await freePort();
  const nginx = await startNginx(dir, root, nginxPort);
  let wharf: WharfServer | undefined;
  let bare: Awaited<ReturnType<typeof startBareNode>> | undefined;
  try {
    const nodeArgs = (server: string) =>
      options.profile ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(options.profile, server)}`] : [];
    wharf = await startWharf(path.join(dir, 'wharf'), options.workers, nodeArgs('wharf'));
    const site = await createBenchSite(wharf, archive);
    await checkSameContent(nginxPort, wharf, site, files);
    const workers = processTreeMemory(wharf.child.pid!).length - 1;
    bare = await startBareNode(dir, workers, wharf.port, site.host, fileCases(files), nodeArgs('bare'));
    await checkBareNode(bare.port, wharf, site, files);
    const fileRows = await measureFiles(plan, { nginx: nginxPort, bare: bare.port }, wharf, site, files);
    const passwords = await measurePasswords(plan, wharf, site);
    const sites = Number(options.sites);
    const memory = sites > 0 ? await measureMemory(plan, wharf, site, sites) : null;

    const runs = `wrk -t${load.threads} -c${load.connections} -d${load.seconds}s --latency, median of ${plan.rounds} runs`;
    console.log(`\nWharf edge vs nginx and bare Node on loopback, ${os.cpus().length} CPUs — ${runs}`);
    console.log(
      `Wharf: ${workers > 0 ? `${workers} workers + primary` : 'one process'}, SQLite; nginx: 2 workers, sendfile, gzip_static; ` +
        `bare Node: ${workers > 0 ? `cluster of ${workers}` : 'one process'}, node:http, Wharf's answers from memory\n`,
    );
    console.log(filesTable(fileRows));
    console.log('\nPassword-protected branch (Wharf, index.html)\n');
    console.log(passwordTable(passwords.open, passwords.locked));
    if (memory) {
      console.log('\nRouting table\n');
      console.log(memoryTable(memory));
    }
    console.log('\nTargets (issues 5 and 14)\n');
    console.log(targetsTable(fileRows, passwords, memory));
  } finally {
    if (bare) await stop(bare.child);
    if (wharf) await stop(wharf.child);
    await stop(nginx, 'SIGQUIT');
    await rm(dir, { recursive: true, force: true });
  }
  // The profiles are written as the processes exit.
  if (options.profile) {
    const title = 'function (self time, workers together)';
    for (const [name, server] of [
      ['Wharf', wharf],
      ['bare Node', bare],
    ] as const) {
      const profile = await topSelfTime(
        path.resolve(options.profile, name === 'Wharf' ? 'wharf' : 'bare'),
        server?.child.pid,
      );
      console.log(
        `\nWhere ${name}'s time went: ${profile.profiles} profiles, the whole run, share of the time not idle\n`,
      );
      console.log(profileTable(title, profile));
    }
  }
}

await main();
