import type { api, ManifestEntry, ReleaseUploader, RouteBody } from '@wharf/contract';
import type { Database, Executor } from '../../../db/schema.ts';
import { isDiskFull } from '../../../http/diskFull.ts';
import { HttpError, httpError, invalidField } from '../../../http/errors.ts';
import { readJson } from '../../../lib/json.ts';
import { RELEASE_CONFIG_FILE } from '../../../releaseFiles/configFile.ts';
import { whileNoBlobIsDeleted } from '../blobs/blobLock.ts';
import { blobsOfOrg } from '../blobs/blobs.ts';
import { createRelease, deployedRelease, mustNotExpireMainBranch } from '../create/createRelease.ts';
import { formsOfRelease, pagesOfDeploy } from '../create/formsOfRelease.ts';
import { RULE_FILES, rulesOfRelease } from '../create/rulesOfRelease.ts';
import { foundUnchanged } from '../create/unchangedRelease.ts';
import { attemptOfDeploy, recordFailedDeploy } from '../failedDeploys.ts';
import { originOfDeploy } from '../origin.ts';
import type { ReleaseParts } from '../parts.ts';
import { baseMustStillExist, wholeManifest } from './deployBase.ts';
import {
  dropDeploy,
  findOpenDeploy,
  insertDeployFiles,
  insertDeployFilesRelativeTo,
  openDeploy,
} from './deployRows.ts';
import { ReleasePaths } from './releasePaths.ts';

type CreateDeployBody = RouteBody<typeof api.createDeploy>;

function checkManifest(parts: ReleaseParts, files: ManifestEntry[]) {
  if (files.length === 0) throw invalidField('files', 'The release has no files');
  const paths = new ReleasePaths();
  files.forEach((file, index) => {
    const clash = paths.addFile(file.path);
    if (clash?.kind === 'duplicate') throw invalidField(`files.${index}.path`, 'Duplicate path');
    if (clash) throw invalidField(`files.${index}.path`, `"${clash.name}" is both a file and a folder`);
  });
  const { releaseFiles, releaseBytes } = parts.config.limits;
  if (files.length > releaseFiles)
    throw httpError('RELEASE_TOO_LARGE', `The release has more than ${releaseFiles} files`);
  if (files.reduce((sum, file) => sum + file.size, 0) > releaseBytes)
    throw httpError('RELEASE_TOO_LARGE', 'The release is larger than allowed');
}

const uniqueHashes = (files: { hash: string }[]) => [...new Set(files.map((file) => file.hash))];

/**
 * Starts an incremental deploy: records the manifest and answers the hashes still to upload. The
 * server may hold a file another organization sent, but only the organization's own uploads
 * count: announcing a hash must not be a way to obtain, or learn of, someone else's file. The
 * manifest is recorded and the answer found under the blob lock, in one transaction: a file the
 * answer says is there (the client will not send it) is one the collection has not begun to
 * delete, and the recorded manifest keeps it from ever doing so.
 */
export async function startDeploy(
  parts: ReleaseParts,
  site: Database['sites'],
  actorId: string | null,
  body: CreateDeployBody,
  uploader: ReleaseUploader | null,
) {
  const startedAt = new Date().toISOString();
  try {
    return await startDeployOf(parts, site, actorId, body, uploader);
  } catch (error) {
    // The base changed under the client: it sends the whole manifest next, which is no failure.
    if (!(error instanceof HttpError && error.code === 'DEPLOY_BASE_CHANGED')) {
      const files = `${body.files.length} files in the manifest${body.base ? `, relative to release ${body.base.release}` : ''}`;
      const attempt = { siteId: site.id, name: body.name, branches: body.branches, startedAt };
      const origin = { uploader, source: body.source ?? {} };
      await recordFailedDeploy(
        parts.db,
        parts.log,
        { ...attempt, origin, log: [`${startedAt} started: ${files}`] },
        error,
      );
    }
    throw error;
  }
}

async function startDeployOf(
  parts: ReleaseParts,
  site: Database['sites'],
  actorId: string | null,
  body: CreateDeployBody,
  uploader: ReleaseUploader | null,
) {
  const files = await wholeManifest(parts.db, site, body);
  checkManifest(parts, files);
  if (body.expires) await mustNotExpireMainBranch(parts.db, site, body.branches);
  // Only the files sent can be new to the organization: the others are the base release's own.
  const announced = body.base ? body.files : files;
  const hashes = uniqueHashes(announced);
  const { deploy, held } = await whileNoBlobIsDeleted(parts.db, async (trx) => {
    // Under the lock, a base release still there holds its files alive; from here the deploy's rows do.
    if (body.base) await baseMustStillExist(trx, body.base.release);
    const row = await openDeploy(trx, parts.config.deployTtlMs, {
      siteId: site.id,
      name: body.name,
      branches: body.branches,
      branchExpiry: body.expires,
      force: body.force,
      draft: body.draft,
      actorId,
      origin: { uploader, source: body.source ?? {} },
    });
    const held = await blobsOfOrg(trx, site.org_id, hashes);
    // Refused before anything is kept: the transaction ends undone.
    announced.forEach((file, index) => {
      const size = held.get(file.hash);
      if (size !== undefined && size !== file.size)
        throw invalidField(`files.${index}.size`, `The file with this hash has ${size} bytes`);
    });
    if (body.base) {
      const base = { releaseId: body.base.release, sent: body.files, removed: body.removed ?? [] };
      await insertDeployFilesRelativeTo(trx, row.id, base, held);
    } else {
      await insertDeployFiles(trx, row.id, files, held);
    }
    return { deploy: row, held };
  });
  return { _id: deploy.id, missing: hashes.filter((hash) => !held.has(hash)), expiresAt: deploy.expires_at };
}

/**
 * Runs a step of a deploy; when the disk fills up under it, the deploy is dropped with the files
 * it brought, right away: the client stops there, and the space must not stay taken until the
 * deploy expires.
 */
export async function dropOnDiskFull<T>(parts: ReleaseParts, deployId: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (isDiskFull(error)) {
      const row = await parts.db.selectFrom('deploys').selectAll().where('id', '=', deployId).executeTakeFirst();
      if (row) await recordFailedDeploy(parts.db, parts.log, attemptOfDeploy(row, []), error);
      await dropDeploy(parts, deployId).catch((failure) =>
        parts.log.error({ err: failure, deployId }, 'could not drop a deploy the full disk stopped'),
      );
    }
    throw error;
  }
}

/** The files at the release's root that configure it rather than being served as they are. */
const RELEASE_SETTINGS_FILES = [RELEASE_CONFIG_FILE, ...RULE_FILES];

/**
 * Hashes the deploy announced that the organization has not sent (or were collected since), found
 * in the database alone. Only those it did not hold at the manifest: the deploy's rows have kept
 * the others since, so a redeploy that sends one file checks one.
 */
async function missingFiles(db: Executor, deployId: string, orgId: string) {
  const rows = await db
    .selectFrom('deploy_files')
    .select('deploy_files.hash')
    .distinct()
    .where('deploy_files.deploy_id', '=', deployId)
    .where('deploy_files.held', '=', 0)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('org_blobs')
            .innerJoin('blobs', 'blobs.hash', 'org_blobs.hash')
            .select('org_blobs.hash')
            .where('org_blobs.org_id', '=', orgId)
            .where('blobs.dead', '=', 0)
            .whereRef('org_blobs.hash', '=', 'deploy_files.hash'),
        ),
      ),
    )
    .execute();
  return rows.map((row) => row.hash);
}

/** The deploy's files at these paths. */
async function deployFilesAt(db: Executor, deployId: string, paths: string[]) {
  const rows = await db
    .selectFrom('deploy_files')
    .select(['path', 'hash', 'size'])
    .where('deploy_id', '=', deployId)
    .where('path', 'in', paths)
    .execute();
  return rows.map((row) => ({ ...row, size: Number(row.size) }));
}

/** Turns a complete deploy into a release; 409 while files are missing. */
export async function finishDeploy(parts: ReleaseParts, deployId: string, site: Database['sites']) {
  const deploy = await findOpenDeploy(parts, deployId);
  if (deploy.release_id)
    return answerAgain(parts, site, deployId, deploy.release_id, readJson<string[]>(deploy.branches));
  const missing = await missingFiles(parts.db, deployId, site.org_id);
  if (missing.length > 0)
    throw httpError(
      'DEPLOY_INCOMPLETE',
      `${missing.length} files are still missing: ${missing.slice(0, 5).join(', ')}`,
    );
  const configFiles = await deployFilesAt(parts.db, deployId, RELEASE_SETTINGS_FILES);
  try {
    const release = await createRelease(parts.db, parts.config, {
      site,
      name: deploy.name,
      branches: readJson<string[]>(deploy.branches),
      branchExpiry: deploy.branch_expiry,
      forms: await formsOfRelease(parts, configFiles, await pagesOfDeploy(parts.db, deployId)),
      rules: await rulesOfRelease(parts, configFiles),
      actorId: deploy.actor_id,
      deployId,
      force: deploy.force === 1,
      draft: deploy.draft === 1,
      origin: originOfDeploy(deploy),
      startedAt: deploy.created_at,
    });
    parts.deployMetrics.succeeded();
    // The release's variants are queued: the runner need not wait for its next look.
    void parts.jobs.wake();
    return release;
  } catch (error) {
    // A retry that arrived while the first finalise was still running: it answers what the first made.
    if (!(error instanceof HttpError && error.code === 'DEPLOY_FINALISED')) throw error;
    const finished = await findOpenDeploy(parts, deployId);
    return answerAgain(parts, site, deployId, finished.release_id!, readJson<string[]>(finished.branches));
  }
}

/** A retried finalise (its first answer lost on the way) gets the release the deploy became. */
async function answerAgain(
  parts: ReleaseParts,
  site: Database['sites'],
  deployId: string,
  releaseId: string,
  branchNames: string[],
) {
  const branches = await parts.db
    .selectFrom('branches')
    .select('id')
    .where('site_id', '=', site.id)
    .where('name', 'in', branchNames)
    .execute();
  return deployedRelease(
    parts.db,
    parts.config,
    site,
    releaseId,
    branches.map((branch) => branch.id),
    await foundUnchanged(parts.db, deployId, releaseId),
  );
}
