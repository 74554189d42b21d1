import { sql } from 'kysely';
import { jsonRows, jsonValues } from '../../../db/jsonRows.ts';
import type { Executor } from '../../../db/schema.ts';
import { httpError } from '../../../http/errors.ts';
import { newId, now } from '../../../lib/ids.ts';
import { removeUnusedBlobs } from '../collect/gc.ts';
import { type DeployOrigin, originColumns } from '../origin.ts';
import type { ReleaseParts } from '../parts.ts';

/**
 * A deploy in progress: its files are protected from the garbage collection until it becomes a
 * release or expires. An upload that never finishes leaves only an expiring row.
 */
export async function openDeploy(
  db: Executor,
  ttlMs: number,
  input: {
    siteId: string;
    name: string;
    branches: string[];
    branchExpiry?: string;
    force?: boolean;
    draft?: boolean;
    actorId: string | null;
    origin: DeployOrigin;
  },
) {
  const created = new Date();
  const row = {
    id: newId(),
    site_id: input.siteId,
    name: input.name,
    branches: JSON.stringify(input.branches),
    actor_id: input.actorId,
    created_at: created.toISOString(),
    expires_at: new Date(created.getTime() + ttlMs).toISOString(),
    release_id: null,
    branch_expiry: input.branchExpiry ?? null,
    force: input.force ? 1 : 0,
    draft: input.draft ? 1 : 0,
    ...originColumns(input.origin),
  };
  await db.insertInto('deploys').values(row).execute();
  return row;
}

/**
 * Records files of a deploy, however many, in one statement. `held`: the hashes whose blobs the
 * organization holds, found under the blob lock in the same transaction; the others are what the
 * finalise checks for.
 */
export async function insertDeployFiles(
  db: Executor,
  deployId: string,
  files: { path: string; hash: string; size: number }[],
  held: ReadonlyMap<string, unknown> = new Map(),
) {
  if (files.length === 0) return;
  const rows = files.map((file) => ({ ...file, held: held.has(file.hash) ? 1 : 0 }));
  const manifest = jsonRows(db, { path: 'text', hash: 'text', size: 'bigint', held: 'integer' }, rows);
  await db
    .insertInto('deploy_files')
    .columns(['deploy_id', 'path', 'hash', 'size', 'held'])
    .expression(
      db
        .selectFrom(manifest.as('file'))
        .select([sql.val(deployId).as('deploy_id'), 'file.path', 'file.hash', 'file.size', 'file.held']),
    )
    .execute();
}

/**
 * Records the files of a deploy relative to a release: the release's rows copied by the database,
 * but those sent anew or removed, then the files sent. A redeploy that changed one file of
 * thousands moves only that one through JavaScript. The caller has checked that the result is the
 * manifest the client digested, and holds the blob lock: the base release, still there, holds its
 * files' blobs.
 */
export async function insertDeployFilesRelativeTo(
  db: Executor,
  deployId: string,
  base: { releaseId: string; sent: { path: string; hash: string; size: number }[]; removed: string[] },
  held: ReadonlyMap<string, unknown>,
) {
  const replaced = jsonValues(db, [...base.sent.map((file) => file.path), ...base.removed]);
  await db
    .insertInto('deploy_files')
    .columns(['deploy_id', 'path', 'hash', 'size', 'held'])
    .expression(
      db
        .selectFrom('release_files')
        .select([sql.val(deployId).as('deploy_id'), 'path', 'hash', 'size', sql.lit(1).as('held')])
        .where('release_id', '=', base.releaseId)
        .where('path', 'not in', db.selectFrom(replaced.as('replaced')).select('replaced.value')),
    )
    .execute();
  await insertDeployFiles(db, deployId, base.sent, held);
}

export async function findOpenDeploy(parts: ReleaseParts, deployId: string) {
  const row = await parts.db.selectFrom('deploys').selectAll().where('id', '=', deployId).executeTakeFirst();
  if (!row) throw httpError('DEPLOY_NOT_FOUND', 'Deploy not found');
  if (row.expires_at <= now()) throw httpError('DEPLOY_EXPIRED', 'The deploy expired; start a new one');
  return row;
}

/**
 * Forgets a deploy that failed, and removes at once the blobs it brought that nothing else uses:
 * they should not hold disk space (a full disk, maybe) until the next garbage collection.
 */
export async function dropDeploy(parts: ReleaseParts, deployId: string) {
  const hashes = await parts.db.transaction().execute(async (trx) => {
    const files = await trx.selectFrom('deploy_files').select('hash').where('deploy_id', '=', deployId).execute();
    await trx.deleteFrom('deploy_files').where('deploy_id', '=', deployId).execute();
    await trx.deleteFrom('deploys').where('id', '=', deployId).execute();
    return [...new Set(files.map((file) => file.hash))];
  });
  await removeUnusedBlobs(parts, hashes);
}
