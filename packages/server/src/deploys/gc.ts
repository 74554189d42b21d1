import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import type { WharfApp } from '../wharfApp.ts';
import { blobKey } from './blobs.ts';

/** Blobs younger than this are never collected: an upload may be about to reference them. */
const GRACE_MS = 10 * 60_000;

/** Forgets deploys that were never finalised, so their files can be collected. */
export async function sweepExpiredDeploys(app: WharfApp, at = new Date()) {
  const expired = app.db.selectFrom('deploys').select('id').where('expires_at', '<=', at.toISOString());
  await app.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('deploy_files').where('deploy_id', 'in', expired).execute();
    await trx.deleteFrom('deploys').where('expires_at', '<=', at.toISOString()).execute();
  });
}

/**
 * Deletes blobs that no release and no deploy in progress uses. Safe while uploads run: a deploy
 * records its files before their blobs are stored, and young blobs are left alone.
 */
export async function collectGarbage(app: WharfApp, at = new Date()) {
  const cutoff = new Date(at.getTime() - GRACE_MS).toISOString();
  const unused = await app.db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom('blobs')
      .select('hash')
      .where('created_at', '<=', cutoff)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('release_files').select(sql`1`.as('one')).whereRef('release_files.hash', '=', 'blobs.hash'),
          ),
        ),
      )
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(selectFrom('deploy_files').select(sql`1`.as('one')).whereRef('deploy_files.hash', '=', 'blobs.hash')),
        ),
      )
      .execute();
    const hashes = rows.map((row) => row.hash);
    for (let start = 0; start < hashes.length; start += 500) {
      await trx
        .deleteFrom('blobs')
        .where('hash', 'in', hashes.slice(start, start + 500))
        .execute();
    }
    return hashes;
  });
  for (const hash of unused) {
    await Promise.all((['identity', 'br', 'gzip'] as const).map((variant) => app.blobs.remove(blobKey(hash, variant))));
  }
  await removeStaleTemporaryFiles(app, at);
  return unused.length;
}

/** Temporary files of uploads cut off by a crash. */
async function removeStaleTemporaryFiles(app: WharfApp, at: Date) {
  const directory = path.join(app.config.dataDir, 'tmp');
  const names = await readdir(directory).catch(() => [] as string[]);
  for (const name of names) {
    const file = path.join(directory, name);
    const info = await stat(file).catch(() => null);
    if (info && at.getTime() - info.mtimeMs > app.config.deployTtlMs) await rm(file, { force: true });
  }
}

/** Runs the sweep and the collection now and then; the timer never keeps the process alive. */
export function scheduleHousekeeping(app: WharfApp, everyMs = 5 * 60_000) {
  const run = async () => {
    try {
      await sweepExpiredDeploys(app);
      const collected = await collectGarbage(app);
      if (collected > 0) app.log.info({ collected }, 'collected unused release files');
    } catch (error) {
      app.log.error({ err: error }, 'housekeeping failed');
    }
  };
  const timer = setInterval(run, everyMs);
  timer.unref();
  app.fastify.addHook('onClose', async () => clearInterval(timer));
  return run;
}
