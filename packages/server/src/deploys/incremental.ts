import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { ManifestEntry } from '@wharf/contract';
import type { Database } from '../db/schema.ts';
import { badRequest, conflict, tooLarge } from '../http/errors.ts';
import { readJson } from '../lib/json.ts';
import type { WharfApp } from '../wharfApp.ts';
import { byteLimit } from './archive.ts';
import { commitBlob, ingest } from './blobs.ts';
import { createRelease, deployedRelease } from './createRelease.ts';
import { findOpenDeploy, openDeploy } from './deployRows.ts';
import { formsOfRelease } from './formsOfRelease.ts';

const CHUNK = 500;

function checkManifest(app: WharfApp, files: ManifestEntry[]) {
  const paths = new Set<string>();
  files.forEach((file, index) => {
    if (paths.has(file.path)) {
      throw badRequest(`files.${index}.path: Duplicate path`, [
        { field: `files.${index}.path`, message: 'Duplicate path' },
      ]);
    }
    paths.add(file.path);
  });
  const { releaseFiles, releaseBytes } = app.config.limits;
  if (files.length > releaseFiles) throw tooLarge(`The release has more than ${releaseFiles} files`);
  if (files.reduce((sum, file) => sum + file.size, 0) > releaseBytes)
    throw tooLarge('The release is larger than allowed');
}

async function storedHashes(app: WharfApp, hashes: string[]) {
  const stored = new Set<string>();
  for (let start = 0; start < hashes.length; start += CHUNK) {
    const rows = await app.db
      .selectFrom('blobs')
      .select('hash')
      .where('hash', 'in', hashes.slice(start, start + CHUNK))
      .execute();
    for (const row of rows) stored.add(row.hash);
  }
  return stored;
}

/** Starts an incremental deploy: records the manifest and answers the hashes still to upload. */
export async function startDeploy(
  app: WharfApp,
  site: Database['sites'],
  actorId: string | null,
  body: { name: string; branches: string[]; files: ManifestEntry[] },
) {
  checkManifest(app, body.files);
  const deploy = await openDeploy(app, { siteId: site.id, name: body.name, branches: body.branches, actorId });
  for (let start = 0; start < body.files.length; start += CHUNK) {
    const rows = body.files.slice(start, start + CHUNK).map((file) => ({ deploy_id: deploy.id, ...file }));
    await app.db.insertInto('deploy_files').values(rows).execute();
  }
  const hashes = [...new Set(body.files.map((file) => file.hash))];
  const stored = await storedHashes(app, hashes);
  return { _id: deploy.id, missing: hashes.filter((hash) => !stored.has(hash)), expiresAt: deploy.expires_at };
}

/** Receives one missing file; bytes that do not hash to the announced value are refused. */
export async function receiveDeployFile(app: WharfApp, deployId: string, hash: string, body: Readable) {
  const file = await app.db
    .selectFrom('deploy_files')
    .select(['path', 'size'])
    .where('deploy_id', '=', deployId)
    .where('hash', '=', hash)
    .executeTakeFirst();
  if (!file) throw badRequest('The deploy has no file with this hash');
  const received = await ingest(app, body, byteLimit(Number(file.size), 'The file is larger than announced'));
  if (received.hash !== hash || received.size !== Number(file.size)) {
    await rm(received.tempPath, { force: true });
    throw badRequest('The uploaded bytes do not match the hash');
  }
  await commitBlob(app, received, file.path);
}

/** Turns a complete deploy into a release; 409 while files are missing. */
export async function finishDeploy(app: WharfApp, deployId: string, site: Database['sites']) {
  const deploy = await findOpenDeploy(app, deployId);
  if (deploy.release_id) return answerAgain(app, site, deploy.release_id, readJson<string[]>(deploy.branches));
  const files = (
    await app.db.selectFrom('deploy_files').select(['path', 'hash', 'size']).where('deploy_id', '=', deployId).execute()
  ).map((file) => ({ ...file, size: Number(file.size) }));
  const stored = await storedHashes(app, [...new Set(files.map((file) => file.hash))]);
  const missing = [...new Set(files.filter((file) => !stored.has(file.hash)).map((file) => file.hash))];
  if (missing.length > 0)
    throw conflict(`${missing.length} files are still missing: ${missing.slice(0, 5).join(', ')}`);
  return createRelease(app.db, app.config, {
    site,
    name: deploy.name,
    branches: readJson<string[]>(deploy.branches),
    files,
    forms: await formsOfRelease(app, files),
    actorId: deploy.actor_id,
    deployId,
  });
}

/** A retried finalise (its first answer lost on the way) gets the release the deploy became. */
async function answerAgain(app: WharfApp, site: Database['sites'], releaseId: string, branchNames: string[]) {
  const branches = await app.db
    .selectFrom('branches')
    .select('id')
    .where('site_id', '=', site.id)
    .where('name', 'in', branchNames)
    .execute();
  return deployedRelease(
    app.db,
    app.config,
    site,
    releaseId,
    branches.map((branch) => branch.id),
  );
}
