import { expiryMs } from '@wharf/contract';
import { sql } from 'kysely';
import type { Config } from '../../../config/types.ts';
import type { Database, Db, Executor } from '../../../db/schema.ts';
import { recordEvent } from '../../../events/outbox.ts';
import { httpError } from '../../../http/errors.ts';
import { newId, now, randomString } from '../../../lib/ids.ts';
import { RELEASE_SLUG_LENGTH } from '../../../lib/urls.ts';
import { releaseWithSlug } from '../../../releaseFiles/releaseSlug.ts';
import { findBranch, toBranch } from '../../branches/queries.ts';
import { pointBranchNamed } from '../../branches/service.ts';
import { addFormsOfRelease } from '../../forms/service.ts';
import { siteScope } from '../../sites/siteEvents.ts';
import { enqueueVariants } from '../blobs/variants.ts';
import { auditOrigin, type DeployOrigin, originColumns } from '../origin.ts';
import { getRelease } from '../queries.ts';
import type { FormsOfRelease } from './formsOfRelease.ts';
import type { RulesOfRelease } from './rulesOfRelease.ts';
import { unchangedRelease } from './unchangedRelease.ts';

export interface NewRelease {
  site: Database['sites'];
  name: string;
  /** Branches to point at the release, created when missing; none: the site's main branch. */
  branches: string[];
  /** How long after now the branches expire (`14d`); null or absent: they never do. */
  branchExpiry?: string | null;
  /** The forms its `.wharf.yml` declares and its pages mark: added to the site's. */
  forms: FormsOfRelease;
  /** Its `_redirects` and `_headers`, parsed, and what is wrong in them. */
  rules: RulesOfRelease;
  actorId: string | null;
  /** The deploy whose files this release takes over (its rows go in the same transaction). */
  deployId: string;
  /** Make a release even when the files equal those of the release the branches serve. */
  force: boolean;
  /** A release that no branch serves yet (`branches` is then empty). */
  draft: boolean;
  /** Who uploaded it and what it was built from. */
  origin: DeployOrigin;
  /** When its deploy began: the upload's duration ends at the release. */
  startedAt: string;
}

/** A slug no release of the site has: random, tried again in the (1 in 36^8) case of a clash. */
async function freeSlug(trx: Executor, siteId: string): Promise<string> {
  for (;;) {
    const slug = randomString(RELEASE_SLUG_LENGTH);
    if (!(await releaseWithSlug(trx, siteId, slug))) return slug;
  }
}

/**
 * The deploy's files the organization first stored during the deploy, and their bytes: found from
 * the organization's blobs stored since (an index by time), few whatever the site's size.
 */
async function newFilesOf(trx: Executor, deployId: string, orgId: string, startedAt: string) {
  const totals = await trx
    .selectFrom('deploy_files')
    .innerJoin('org_blobs', 'org_blobs.hash', 'deploy_files.hash')
    .select(({ fn }) => [fn.countAll<number>().as('files'), fn.sum<number>('deploy_files.size').as('bytes')])
    .where('deploy_files.deploy_id', '=', deployId)
    .where('org_blobs.org_id', '=', orgId)
    .where('org_blobs.created_at', '>=', startedAt)
    .executeTakeFirstOrThrow();
  return { files: Number(totals.files), bytes: Number(totals.bytes ?? 0) };
}

/** The deploy's files become the release's, moved from table to table by the database alone. */
async function takeOverDeployFiles(trx: Executor, deployId: string, releaseId: string) {
  await trx
    .insertInto('release_files')
    .columns(['release_id', 'path', 'hash', 'size'])
    .expression(
      trx
        .selectFrom('deploy_files')
        .select([sql.val(releaseId).as('release_id'), 'path', 'hash', 'size'])
        .where('deploy_id', '=', deployId),
    )
    .execute();
  await trx.deleteFrom('deploy_files').where('deploy_id', '=', deployId).execute();
}

/** How many files a deploy brings, and their bytes. */
async function deployTotals(trx: Executor, deployId: string) {
  const totals = await trx
    .selectFrom('deploy_files')
    .select(({ fn }) => [fn.countAll<number>().as('files'), fn.sum<number>('size').as('bytes')])
    .where('deploy_id', '=', deployId)
    .executeTakeFirstOrThrow();
  return { files: Number(totals.files), bytes: Number(totals.bytes ?? 0) };
}

/**
 * Makes a release visible and points its branches at it, all in one transaction: a reader sees
 * the old release or the complete new one, never a half. Branches that do not exist are created.
 */
export async function createRelease(db: Db, config: Config, input: NewRelease) {
  const { site } = input;
  const scope = { actorId: input.actorId, ...siteScope(site) };
  const expiresAt = input.branchExpiry ? new Date(Date.now() + expiryMs(input.branchExpiry)).toISOString() : null;
  const made = await db.transaction().execute(async (trx) => {
    const branchNames = input.draft ? [] : await branchesToPoint(trx, site, input.branches);
    if (expiresAt && !input.draft) await mustNotExpireMainBranch(trx, site, branchNames);
    const unchanged =
      input.force || input.draft ? null : await unchangedRelease(trx, site, branchNames, input.deployId);
    const releaseId = unchanged ?? newId();
    // The deploy remembers what it became, so a retried finalise answers the same. Claimed first:
    // a second finalise running at the same time waits here, then finds it taken and makes nothing.
    const claimed = await trx
      .updateTable('deploys')
      .set({ release_id: releaseId, branches: JSON.stringify(branchNames) })
      .where('id', '=', input.deployId)
      .where('release_id', 'is', null)
      .executeTakeFirst();
    if (claimed.numUpdatedRows === 0n) throw httpError('DEPLOY_FINALISED', 'The deploy is already finalised');
    if (unchanged)
      return {
        releaseId,
        branchIds: await keepServing(trx, site, branchNames, input.deployId, expiresAt),
        unchanged: true,
      };
    const totals = await deployTotals(trx, input.deployId);
    const fresh = await newFilesOf(trx, input.deployId, site.org_id, input.startedAt);
    const createdAt = now();
    await trx
      .insertInto('releases')
      .values({
        id: releaseId,
        site_id: site.id,
        name: input.name,
        // What the release's own files declared and marked; the site's forms are what is served.
        forms: JSON.stringify([...input.forms.declared, ...input.forms.detected]),
        file_count: totals.files,
        total_size: totals.bytes,
        rules: JSON.stringify(input.rules.rules),
        rule_problems: JSON.stringify([...input.forms.problems, ...input.rules.problems]),
        created_at: createdAt,
        slug: await freeSlug(trx, site.id),
        ...originColumns(input.origin),
        upload_ms: Math.max(0, Date.parse(createdAt) - Date.parse(input.startedAt)),
        new_files: fresh.files,
        new_bytes: fresh.bytes,
      })
      .execute();
    await addFormsOfRelease(trx, site.id, input.forms);
    // Live now, unencoded; brotli and gzip follow from the job queue.
    await enqueueVariants(trx, input.deployId);
    await takeOverDeployFiles(trx, input.deployId, releaseId);
    await recordEvent(trx, {
      ...scope,
      name: 'site_release_created',
      data: { releaseId, name: input.name, files: totals.files, ...auditOrigin(input.origin) },
    });
    const branchIds: string[] = [];
    const release = { id: releaseId, name: input.name };
    for (const name of branchNames) {
      const branch = await pointBranchNamed(trx, site, name, release, {
        actorId: input.actorId,
        ...auditOrigin(input.origin),
      });
      // Each upload says anew whether its branches expire: one without an expiry makes them stay.
      await trx.updateTable('branches').set({ expires_at: expiresAt }).where('id', '=', branch.id).execute();
      branchIds.push(branch.id);
    }
    return { releaseId, branchIds, unchanged: false };
  });
  return deployedRelease(db, config, site, made.releaseId, made.branchIds, made.unchanged);
}

/**
 * An unchanged upload leaves its branches on the release they serve, and its files to that
 * release: only the expiry it gives (a preview's life, renewed by each upload) is taken.
 */
async function keepServing(
  trx: Executor,
  site: Database['sites'],
  branchNames: string[],
  deployId: string,
  expiresAt: string | null,
) {
  await trx.deleteFrom('deploy_files').where('deploy_id', '=', deployId).execute();
  const branches = await trx
    .selectFrom('branches')
    .select('id')
    .where('site_id', '=', site.id)
    .where('name', 'in', branchNames)
    .execute();
  const branchIds = branches.map((branch) => branch.id);
  await trx.updateTable('branches').set({ expires_at: expiresAt }).where('id', 'in', branchIds).execute();
  return branchIds;
}

/**
 * Refuses an expiry for the site's main branch (named, or implied by naming none): what the
 * site's own address serves never goes away by itself.
 */
export async function mustNotExpireMainBranch(db: Executor, site: Database['sites'], branchNames: string[]) {
  // The site as it is now: its main branch may have changed since the upload began.
  const { main } = await db
    .selectFrom('sites')
    .innerJoin('branches', 'branches.id', 'sites.main_branch_id')
    .select('branches.name as main')
    .where('sites.id', '=', site.id)
    .executeTakeFirstOrThrow();
  if (branchNames.length === 0 || branchNames.includes(main)) {
    throw httpError(
      'MAIN_BRANCH_CANNOT_EXPIRE',
      `The main branch (${main}) cannot expire; upload it without an expiry`,
    );
  }
}

/** The branches an upload names, each once; none: the site's main branch. */
async function branchesToPoint(db: Executor, site: Database['sites'], names: string[]) {
  return [...new Set(names.length > 0 ? names : [await mainBranchName(db, site)])];
}

/** An upload that names no branch goes to the site's main branch. */
export async function mainBranchName(db: Executor, site: Database['sites']) {
  const main = await db
    .selectFrom('branches')
    .select('name')
    .where('id', '=', site.main_branch_id)
    .executeTakeFirstOrThrow();
  return main.name;
}

/** The answer to an upload: the release and the branches the upload pointed at it. */
export async function deployedRelease(
  db: Db,
  config: Config,
  site: Database['sites'],
  releaseId: string,
  branchIds: string[],
  unchanged: boolean,
) {
  const release = await getRelease(db, config, site, releaseId);
  const deployedBranches = await Promise.all(
    branchIds.map(async (id) => toBranch(config, site, await findBranch(db, site.id, id))),
  );
  return { ...release, deployedBranches, unchanged };
}
