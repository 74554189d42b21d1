import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { request } from './http.ts';
import { compare, type Plan } from './measure.ts';
import type { BenchFile } from './siteFiles.ts';
import { AdminClient, type BenchSite, type WharfServer } from './wharf.ts';
import type { WrkResult } from './wrk.ts';

const STATIC_RULES = 2_000;
const DYNAMIC_RULES = 100;
const HEADER_BLOCKS = 100;

/** Cloudflare's limits, all used: 2,000 static rules, then 100 dynamic ones; the last is what the row asks for. */
function manyRedirects() {
  const lines: string[] = [];
  for (let i = 0; i < STATIC_RULES; i++) lines.push(`/old/page-${i}  /new/page-${i}  301`);
  for (let i = 0; i < DYNAMIC_RULES; i++) lines.push(`/section-${i}/:slug/*  /s${i}/:slug/:splat  302`);
  return lines.join('\n');
}

const LAST_RULE_PATH = `/section-${DYNAMIC_RULES - 1}/guides/install/linux`;
const LAST_RULE_TARGET = `/s${DYNAMIC_RULES - 1}/guides/install/linux`;

/** 100 blocks as a real site has them: one for every path, one for the assets, the rest by section. */
function manyHeaderBlocks() {
  const blocks = [
    '/*\n  X-Frame-Options: DENY\n  Referrer-Policy: same-origin',
    '/assets/*\n  Cache-Control: immutable',
  ];
  for (let i = 0; blocks.length < HEADER_BLOCKS; i++) blocks.push(`/section-${i}/*\n  X-Section: ${i}`);
  return blocks.join('\n');
}

/** The bench's files with these rule files beside them, as a release archive. */
async function archiveWith(dir: string, name: string, files: BenchFile[], rules: Record<string, string>) {
  const root = path.join(dir, name);
  await mkdir(root, { recursive: true });
  for (const file of files) await writeFile(path.join(root, file.name), file.content);
  for (const [file, content] of Object.entries(rules)) await writeFile(path.join(root, file), content);
  const archive = path.join(dir, `${name}.tar.gz`);
  execFileSync('tar', ['-czf', archive, '-C', root, ...files.map((file) => file.name), ...Object.keys(rules)]);
  return archive;
}

async function siteWithRelease(api: AdminClient, teamId: string, name: string, archive: string, port: number) {
  const site = await api.call<{ _id: string; name: string }>('POST', `/api/v1/teams/${teamId}/sites`, { name });
  const form = new FormData();
  form.append('name', `${name} release`);
  form.append('file', new Blob([await readFile(archive)], { type: 'application/gzip' }), 'site.tar.gz');
  const release = await api.call<{ ruleProblems: unknown[] }>('POST', `/api/v1/sites/${site._id}/releases`, form);
  if (release.ruleProblems.length > 0) throw new Error(`${name}: ${JSON.stringify(release.ruleProblems.slice(0, 3))}`);
  return `${site.name}.localhost:${port}`;
}

export interface RulesRows {
  plainFile: { without: WrkResult; with: WrkResult };
  lastRule: { alone: WrkResult; last: WrkResult };
}

/**
 * The cost of a release's rules: the same files served by three sites, one without rules, one
 * whose `_redirects` holds only the rule asked for, and one with 2,000 static and 100 dynamic
 * rules (that rule last) and 100 `_headers` blocks. A plain file and the last rule are measured
 * against the site that differs only by the rules.
 */
export async function measureRules(plan: Plan, wharf: WharfServer, bench: BenchSite, dir: string, files: BenchFile[]) {
  process.stderr.write('measuring a release with 2,000 redirect rules and 100 header blocks…\n');
  const api = new AdminClient(`http://127.0.0.1:${wharf.port}`);
  await api.call('POST', '/auth/in-memory', { user: 'admin', password: wharf.adminPassword });
  const lastRule = `/section-${DYNAMIC_RULES - 1}/:slug/*  /s${DYNAMIC_RULES - 1}/:slug/:splat  302`;
  const hosts = {
    none: await siteWithRelease(api, bench.teamId, 'rules-none', await archiveWith(dir, 'none', files, {}), wharf.port),
    one: await siteWithRelease(
      api,
      bench.teamId,
      'rules-one',
      await archiveWith(dir, 'one', files, { _redirects: lastRule }),
      wharf.port,
    ),
    many: await siteWithRelease(
      api,
      bench.teamId,
      'rules-many',
      await archiveWith(dir, 'many', files, { _redirects: manyRedirects(), _headers: manyHeaderBlocks() }),
      wharf.port,
    ),
  };
  await checkAnswers(wharf.port, hosts);
  // `/` serves index.html: with pretty URLs on, as on any new site, /index.html would redirect there.
  const page = '/';
  const [without, withRules, alone, last] = await compare(plan, [
    { port: wharf.port, path: page, headers: { Host: hosts.none } },
    { port: wharf.port, path: page, headers: { Host: hosts.many } },
    { port: wharf.port, path: LAST_RULE_PATH, headers: { Host: hosts.one } },
    { port: wharf.port, path: LAST_RULE_PATH, headers: { Host: hosts.many } },
  ]);
  return { plainFile: { without: without!, with: withRules! }, lastRule: { alone: alone!, last: last! } };
}

/** The rules must do what they say before their speed means anything. */
async function checkAnswers(port: number, hosts: { none: string; one: string; many: string }) {
  for (const host of [hosts.one, hosts.many]) {
    const answer = await request(port, host, LAST_RULE_PATH);
    if (answer.status !== 302 || answer.headers.location !== LAST_RULE_TARGET)
      throw new Error(`${host} answered ${answer.status} ${answer.headers.location} for the last rule`);
  }
  const page = await request(port, hosts.many, '/');
  if (page.status !== 200 || page.headers['x-frame-options'] !== 'DENY')
    throw new Error(`${hosts.many} did not apply its _headers to /`);
  if ((await request(port, hosts.none, LAST_RULE_PATH)).status !== 404)
    throw new Error(`${hosts.none} has a rule it should not have`);
}
