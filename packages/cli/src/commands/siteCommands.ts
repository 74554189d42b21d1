import { parseArgs } from 'node:util';
import type { Branch, Release } from '@wharf/contract';
import { explainFailure } from '../api/explainFailure.ts';
import { type SiteAndAccountCalls, siteAndAccountCalls } from '../api/siteAndAccountCalls.ts';
import type { CliContext } from '../context.ts';
import { CliFailure, exitCodes, usageError } from '../failures.ts';
import { siteCommandHelp } from '../help.ts';
import { connectionOf, connectionOptions, type SiteConnection } from './connection.ts';

const options = {
  ...connectionOptions,
  branch: { type: 'string' },
  release: { type: 'string' },
  search: { type: 'string' },
  limit: { type: 'string' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof options; allowPositionals: true }>>['values'];

interface SiteCommand {
  /** The positionals the command takes after its name (`branch delete NAME`: ['delete', NAME]). */
  run(
    wharf: SiteAndAccountCalls,
    site: SiteConnection,
    values: Values,
    positionals: string[],
  ): Promise<{ text: string; json: unknown }>;
}

const refused = (message: string) => new CliFailure(exitCodes.refused, message);

async function branchNamed(wharf: SiteAndAccountCalls, siteId: string, name: string): Promise<Branch> {
  const branch = (await wharf.listBranches(siteId)).find((candidate) => candidate.name === name);
  if (!branch) throw refused(`The site has no branch named ${name}`);
  return branch;
}

/** A release by its id, or else by its exact name (the newest of that name). */
async function releaseNamed(wharf: SiteAndAccountCalls, siteId: string, idOrName: string): Promise<Release> {
  const found = await wharf.listReleases(siteId, { page: 0, size: 100, search: idOrName });
  const release =
    found.items.find((candidate) => candidate._id === idOrName) ??
    found.items.find((candidate) => candidate.name === idOrName);
  if (release) return release;
  const byId = (await wharf.listReleases(siteId, { page: 0, size: 100 })).items.find((c) => c._id === idOrName);
  if (!byId) throw refused(`The site has no release with the id or name ${idOrName}`);
  return byId;
}

const commands: Record<string, SiteCommand> = {
  branch: {
    async run(wharf, site, _values, positionals) {
      const [action, name, ...rest] = positionals;
      if (action !== 'delete' || !name || rest.length > 0) throw usageError('Usage: wharf branch delete NAME');
      const branch = await branchNamed(wharf, site.siteId, name);
      await wharf.deleteBranch(site.siteId, branch._id);
      return { text: `Deleted the branch ${name}\n`, json: { ok: true, deleted: { _id: branch._id, name } } };
    },
  },
  rollback: {
    async run(wharf, site, values, positionals) {
      if (!values.branch || !values.release || positionals.length > 0)
        throw usageError('Usage: wharf rollback --branch NAME --release ID|NAME');
      const branch = await branchNamed(wharf, site.siteId, values.branch);
      const release = await releaseNamed(wharf, site.siteId, values.release);
      const updated = await wharf.setBranchRelease(site.siteId, branch._id, release._id);
      return {
        text: `The branch ${branch.name} serves release "${release.name}" (${release._id}): ${updated.url}\n`,
        json: { ok: true, branch: { _id: updated._id, name: updated.name, url: updated.url }, release: pick(release) },
      };
    },
  },
  publish: {
    async run(wharf, site, values, positionals) {
      const [idOrName, ...rest] = positionals;
      if (!idOrName || rest.length > 0 || values.release)
        throw usageError('Usage: wharf publish RELEASE [--branch NAME] (RELEASE: its id or name)');
      const release = await releaseNamed(wharf, site.siteId, idOrName);
      const branch = await wharf.publishRelease(release._id, values.branch);
      return {
        text: `Published release "${release.name}" (${release._id}) to the branch ${branch.name}: ${branch.url}\n`,
        json: { ok: true, branch: { _id: branch._id, name: branch.name, url: branch.url }, release: pick(release) },
      };
    },
  },
  releases: {
    async run(wharf, site, values, positionals) {
      if (positionals[0] !== 'list' || positionals.length > 1) throw usageError('Usage: wharf releases list');
      const limit = Number(values.limit ?? 20);
      if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw usageError('--limit must be from 1 to 100');
      const page = await wharf.listReleases(site.siteId, { page: 0, size: limit, search: values.search });
      const rows = page.items.map((release) => [
        release.name,
        release._id,
        release.date,
        release.branches.map((branch) => branch.name).join(', ') || '-',
        release.url,
      ]);
      return {
        text: `${table(['release', 'id', 'date', 'served by', 'address'], rows)}${page.count} release(s) in all\n`,
        json: { ok: true, count: page.count, releases: page.items.map(pick) },
      };
    },
  },
  status: {
    async run(wharf, site, _values, positionals) {
      if (positionals.length > 0) throw usageError('Usage: wharf status');
      const branches = await wharf.listBranches(site.siteId);
      const names = new Map(
        (await wharf.listReleases(site.siteId, { page: 0, size: 100 })).items.map((r) => [r._id, r.name]),
      );
      const served = branches.map((branch) => ({
        _id: branch._id,
        name: branch.name,
        url: branch.url,
        release: branch.release === null ? null : { _id: branch.release, name: names.get(branch.release) ?? null },
      }));
      const rows = served.map((b) => [b.name, b.release?.name ?? b.release?._id ?? '(nothing yet)', b.url]);
      return { text: table(['branch', 'serves', 'url'], rows), json: { ok: true, branches: served } };
    },
  },
};

function pick(release: Release) {
  const { _id, name, date, url, fileCount, size, source } = release;
  return { _id, name, date, url, fileCount, size, source, branches: release.branches.map((branch) => branch.name) };
}

function table(header: string[], rows: string[][]) {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    `${cells
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join('  ')
      .trimEnd()}\n`;
  return [line(header), ...rows.map(line)].join('');
}

/** `wharf branch|rollback|publish|releases|status`: what a CI does besides uploading, with a site token. */
export function siteCommand(name: keyof typeof commands) {
  return async (argv: string[], context: CliContext): Promise<number> => {
    let parsed: ReturnType<typeof parseArgs<{ options: typeof options; allowPositionals: true }>>;
    try {
      parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
    } catch (error) {
      throw usageError((error as Error).message);
    }
    if (parsed.values.help) {
      context.stdout.write(siteCommandHelp);
      return exitCodes.ok;
    }
    const site = connectionOf(parsed.values, context.env);
    const onRetry = (message: string) => void context.stderr.write(`${message}\n`);
    const wharf = siteAndAccountCalls({ url: site.url, token: site.token, retry: context.retry, onRetry });
    try {
      const result = await commands[name]!.run(wharf, site, parsed.values, parsed.positionals);
      context.stdout.write(parsed.values.json ? `${JSON.stringify(result.json)}\n` : result.text);
      return exitCodes.ok;
    } catch (error) {
      if (error instanceof CliFailure) throw error;
      const { url, siteId, fromLogin } = site;
      throw explainFailure(error, { url, siteId, fromLogin, attempts: context.retry.attempts });
    }
  };
}
