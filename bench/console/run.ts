// The console's first pages in Lighthouse (mobile) beside a static page served by nginx:
// `npx tsx bench/console/run.ts --help`.
import { access, mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildConsole } from '../../scripts/consoleBuild.mjs';
import { stop } from '../edge/http.ts';
import { NGINX } from '../edge/nginx.ts';
import { startWharf } from '../edge/wharf.ts';
import { startBaseline } from './baseline.ts';
import { audit, CHROMIUM, type PageFigures, type Visitor } from './lighthouse.ts';
import { pagesTable, targetsOf } from './report.ts';
import { signedInWithOrg } from './wharf.ts';

const { values: options } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    reports: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});
if (options.help) {
  console.log(`npx tsx bench/console/run.ts [--runs 3] [--reports DIR]
  --runs 3       Lighthouse runs of each page; the table shows the run of median performance
  --reports DIR  keep each run's Lighthouse report (JSON) in DIR`);
  process.exit(0);
}
const runs = Number(options.runs);

/** Chromium and the baseline come from Debian's packages; say so instead of failing on a spawn. */
async function checkTools() {
  for (const [tool, install] of [
    [CHROMIUM, 'apt-get install chromium (or set CHROME_PATH)'],
    [NGINX, 'apt-get install nginx-light'],
  ]) {
    await access(tool!).catch(() => {
      console.error(`${tool} is missing: ${install}`);
      process.exit(1);
    });
  }
}

/** Lighthouse's performance score varies from run to run: the run of median performance stands for the page. */
async function measure(label: string, url: string, visitor?: Visitor): Promise<PageFigures> {
  const results: PageFigures[] = [];
  for (let run = 1; run <= runs; run++) {
    const slug = label.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '');
    const report = options.reports ? path.join(options.reports, `${slug}-${run}.json`) : undefined;
    const figures = await audit(label, url, visitor, report);
    console.log(
      `  ${label}, run ${run}: performance ${figures.performance}, LCP ${figures.lcpMs} ms, TBT ${figures.tbtMs} ms, CPU index ${figures.benchmarkIndex}`,
    );
    results.push(figures);
  }
  results.sort((a, b) => a.performance - b.performance);
  return results[Math.floor(results.length / 2)]!;
}

/** Lighthouse times the CPU: other work on the machine slows every page down. */
function reportLoad(when: string) {
  const [oneMinute = 0] = os.loadavg();
  const cores = os.availableParallelism();
  const busy = oneMinute > cores ? ` (more than its ${cores} cores: the timings suffer)` : '';
  console.log(`Load of the machine ${when}: ${oneMinute.toFixed(1)}${busy}`);
}

await checkTools();
reportLoad('before');
if (options.reports) await mkdir(options.reports, { recursive: true });
console.log('Building the console…');
buildConsole();
const dir = await mkdtemp(path.join(os.tmpdir(), 'wharf-bench-console-'));
const baseline = await startBaseline(dir);
const wharf = await startWharf(path.join(dir, 'data'), undefined);
try {
  const origin = `http://127.0.0.1:${wharf.port}`;
  const visitor = await signedInWithOrg(wharf);
  console.log(`Lighthouse, ${runs} run(s) of each page:`);
  const hello = await measure('nginx "hello" (baseline)', baseline.url);
  const login = await measure('/login', `${origin}/login`);
  const home = await measure('/teams (org home, signed in)', `${origin}/teams`, visitor);
  const pages = [hello, login, home];
  console.log(`\n${pagesTable(pages)}\n`);
  for (const page of pages) {
    if (page.failing.length > 0) console.log(`${page.label}: failing audits: ${page.failing.join(', ')}`);
  }
  reportLoad('after');
  const targets = targetsOf(login, [login, home]);
  for (const target of targets) console.log(`${target.met ? 'met   ' : 'MISSED'} ${target.text}`);
  if (targets.some((target) => !target.met)) process.exitCode = 1;
} finally {
  await Promise.all([stop(wharf.child), stop(baseline.nginx)]);
  await rm(dir, { recursive: true, force: true });
}
