import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { ReleaseSource } from '@wharf/contract';
import type { BuildSettings } from '../../../config/types.ts';
import type { Database, Db } from '../../../db/schema.ts';
import { trackEvents } from '../../../events/outbox.ts';
import { now } from '../../../lib/ids.ts';
import { readJson } from '../../../lib/json.ts';
import type { Sealer } from '../../../lib/secrets.ts';
import type { OutboundGuard } from '../../../outbound/guard.ts';
import { RELEASE_CONFIG_FILE } from '../../../releaseFiles/configFile.ts';
import type { ReleaseParts } from '../../releases/parts.ts';
import type { BuildRow } from '../buildRows.ts';
import { imageAllowed } from '../buildSettings.ts';
import { variablesOfBuild } from '../variables.ts';
import { cacheFolder, openCache, realFolderIn, restoreModules, saveModules } from './buildCache.ts';
import { buildConfigIn } from './buildConfigFile.ts';
import type { BuildLog } from './buildLog.ts';
import { checkOut } from './checkout.ts';
import { runInContainer } from './container.ts';
import { Phases, SKIPPED } from './phases.ts';
import { runQuietly } from './processes.ts';
import { publish } from './publish.ts';
import { mustReachRepository } from './repositoryAddress.ts';
import { BuildStepFailed } from './stepFailed.ts';

/** What running builds needs of the installation. */
export interface BuildWork {
  release: ReleaseParts;
  sealer: Sealer;
  settings: BuildSettings;
  /** The gate of connections to repositories: private addresses only when the operator allows them. */
  guard: OutboundGuard;
  /** Waits until this node serves what the events up to `seq` changed (a release on its branch), a few seconds at most. */
  settle(seq: number): Promise<unknown>;
}

/** Where a build's own files go while it runs; removed when it ends. */
export const buildFolder = (dataDir: string, buildId: string) => path.join(dataDir, 'builds', buildId);

/** How dependencies install, from the lockfile the base directory holds; null when there is nothing to install. */
export function installCommand(files: string[], modulesRestored: boolean): string | null {
  const has = (name: string) => files.includes(name);
  if (has('pnpm-lock.yaml')) return 'corepack pnpm install --frozen-lockfile';
  if (has('yarn.lock')) return 'yarn install --frozen-lockfile';
  // `npm ci` starts by deleting node_modules: with a restored one, install keeps what it can.
  if (has('package-lock.json') || has('npm-shrinkwrap.json'))
    return modulesRestored ? 'npm install --no-audit --no-fund' : 'npm ci --no-audit --no-fund';
  if (has('package.json')) return 'npm install --no-audit --no-fund';
  return null;
}

function stepFailure(what: string, code: number | null, signal: AbortSignal) {
  if (signal.aborted) return new BuildStepFailed(String(signal.reason));
  return new BuildStepFailed(
    code === null
      ? `${what} was stopped`
      : code === 137
        ? `${what} ran out of memory or was killed`
        : `${what} exited with code ${code}`,
  );
}

async function siteAndRepository(release: ReleaseParts, row: BuildRow) {
  const site = await release.db.selectFrom('sites').selectAll().where('id', '=', row.site_id).executeTakeFirst();
  if (!site) throw new BuildStepFailed('The site was deleted');
  const repository = await release.db
    .selectFrom('site_repositories')
    .selectAll()
    .where('site_id', '=', site.id)
    .executeTakeFirst();
  if (!repository) throw new BuildStepFailed('The site’s repository was disconnected');
  return { site, repository };
}

/**
 * How this build runs: the site's settings, with what the `build` section of the commit's
 * `.wharf.yml` sets instead; the image must be one the installation allows.
 */
async function effectiveSettings(
  work: BuildWork,
  row: BuildRow,
  repository: Database['site_repositories'],
  base: string,
  log: BuildLog,
) {
  const file = await buildConfigIn(base);
  if (file)
    log.say(
      `${RELEASE_CONFIG_FILE} sets ${Object.entries(file)
        .map(([key, value]) => `${key}: ${value}`)
        .join(', ')}`,
    );
  const settings = {
    command: file?.command ?? repository.build_command,
    publish: file?.publish ?? repository.publish_directory,
    image: file?.image ?? row.image,
  };
  if (!imageAllowed(work.settings, settings.image))
    throw new BuildStepFailed(`The image ${settings.image} is not allowed on this installation (WHARF_BUILD_IMAGES)`);
  if (settings.image !== row.image)
    await work.release.db.updateTable('builds').set({ image: settings.image }).where('id', '=', row.id).execute();
  return settings;
}

/**
 * Keeps the SSH host key the first clone learnt: later clones insist on it, so a host that shows
 * another (someone between Wharf and the forge) is refused. Only while the URL is the one cloned.
 */
async function pinHostKey(db: Db, repository: Database['site_repositories'], knownHosts: string) {
  await db
    .updateTable('site_repositories')
    .set({ ssh_known_hosts: knownHosts, ssh_known_at: now() })
    .where('site_id', '=', repository.site_id)
    .where('url', '=', repository.url)
    .where('ssh_known_hosts', 'is', null)
    .execute();
}

/** Runs the steps after the install; when one fails (not when cancelled), saves the installed modules all the same. */
async function keepModulesOnFailure<T>(cache: string, base: string, signal: AbortSignal, steps: () => Promise<T>) {
  try {
    return await steps();
  } catch (error) {
    if (!signal.aborted) await saveModules(cache, base, now()).catch(() => false);
    throw error;
  }
}

/**
 * One build, phase by phase: the commit is fetched (git on the host, running nothing of the
 * repository), the site's cache restored, dependencies installed and the build command run, each in
 * a container of its own with the build's limits, the publish directory deployed as the CLI
 * deploys, and the cache saved. Throws with the reason when a phase fails.
 */
export async function runBuild(work: BuildWork, row: BuildRow, log: BuildLog, signal: AbortSignal) {
  const { db, config } = work.release;
  const { site, repository } = await siteAndRepository(work.release, row);
  const phases = new Phases(db, row.id, log);
  const workDir = buildFolder(config.dataDir, row.id);
  const requested = readJson<ReleaseSource>(row.source);

  const checkout = await phases.run('clone', async () => {
    const addresses = await mustReachRepository(work.guard, repository.url);
    const checkedOut = await checkOut({
      url: repository.url,
      addresses,
      gitBranch: row.git_branch,
      commit: requested.commit,
      ...(row.fetch_ref ? { ref: row.fetch_ref } : {}),
      deployKey: work.sealer.open(repository.deploy_key_sealed),
      knownHosts: repository.ssh_known_hosts,
      extraCaCerts: config.extraCaCerts,
      workDir,
      log,
      signal,
    });
    if (!repository.ssh_known_hosts && checkedOut.knownHosts) await pinHostKey(db, repository, checkedOut.knownHosts);
    // The build's user writes in the checkout, whichever user the runtime maps it to.
    await runQuietly('chmod', ['-R', 'a+rwX', checkedOut.dir], { PATH: process.env.PATH });
    return checkedOut;
  });
  if (checkout === SKIPPED) throw new BuildStepFailed('Nothing was checked out');
  const source: ReleaseSource = {
    ...requested,
    branch: row.git_branch,
    commit: checkout.commit,
    author: checkout.author.slice(0, 255),
    message: checkout.message.slice(0, 2000),
  };
  await db
    .updateTable('builds')
    .set({ source: JSON.stringify(source) })
    .where('id', '=', row.id)
    .execute();
  log.say(`Checked out ${checkout.commit.slice(0, 12)}: ${checkout.message.split('\n')[0]}`);

  const siteVariables = await variablesOfBuild(db, work.sealer, site.id, row.git_branch, repository.production_branch);
  log.maskAlso(siteVariables.secrets);
  const variables = {
    ...siteVariables.variables,
    WHARF_CONTEXT: siteVariables.context,
    WHARF_GIT_BRANCH: row.git_branch,
    WHARF_COMMIT: checkout.commit,
  };
  const base = await realFolderIn(checkout.dir, repository.base_directory, 'base directory');
  const settings = await effectiveSettings(work, row, repository, base, log);
  const cache = cacheFolder(config.dataDir, site.id);
  const restored = await phases.run('restoreCache', async () => {
    await openCache(cache, repository.cache_cleared_at);
    return (await restoreModules(cache, base)) ? true : SKIPPED;
  });
  const inContainer = async (what: string, step: string, command: string) => {
    log.say(`$ ${command}`);
    const code = await runInContainer({
      settings: work.settings,
      name: `wharf-build-${row.id}-${step}`,
      image: settings.image,
      workspace: checkout.dir,
      cache,
      directory: repository.base_directory,
      command,
      variables,
      log,
      signal,
    });
    if (code !== 0) throw stepFailure(what, code, signal);
  };

  await phases.run('install', async () => {
    const command = installCommand(await readdir(base), restored === true);
    if (!command) return SKIPPED;
    await inContainer('Installing the dependencies', 'install', command);
  });
  // Dependencies once installed are sound whatever the build command then does: a build that fails
  // after its install keeps them for the next one rather than losing the cache it restored.
  const published = await keepModulesOnFailure(cache, base, signal, async () => {
    await phases.run('build', async () => {
      if (settings.command.trim() === '') return SKIPPED;
      await inContainer('The build command', 'build', settings.command);
    });
    return phases.run('upload', async () => {
      const root = await realFolderIn(base, settings.publish, 'publish directory');
      const { result, lastSeq } = await trackEvents(() =>
        publish({
          parts: work.release,
          site,
          actorId: row.actor_id,
          name: `${row.git_branch}@${checkout.commit.slice(0, 7)}`,
          branch: row.branch,
          source: { ...source, ci: 'Wharf', ciRunUrl: new URL(`/sites/${site.id}/builds/${row.id}`, config.url).href },
          root,
          log,
        }),
      );
      // A build that succeeded is one whose page this node serves.
      await work.settle(lastSeq);
      return result;
    });
  });
  if (published === SKIPPED) throw new BuildStepFailed('Nothing was published');
  await phases.run('saveCache', async () => ((await saveModules(cache, base, now())) ? true : SKIPPED));
  return published;
}
