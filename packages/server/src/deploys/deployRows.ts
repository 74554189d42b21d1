import { HttpError, notFound } from '../http/errors.ts';
import { newId, now } from '../lib/ids.ts';
import type { WharfApp } from '../wharfApp.ts';

/**
 * A deploy in progress: its files are protected from the garbage collection until it becomes a
 * release or expires. An upload that never finishes leaves only an expiring row.
 */
export async function openDeploy(
  app: WharfApp,
  input: { siteId: string; name: string; branches: string[]; actorId: string | null },
) {
  const created = new Date();
  const row = {
    id: newId(),
    site_id: input.siteId,
    name: input.name,
    branches: JSON.stringify(input.branches),
    actor_id: input.actorId,
    created_at: created.toISOString(),
    expires_at: new Date(created.getTime() + app.config.deployTtlMs).toISOString(),
    release_id: null,
  };
  await app.db.insertInto('deploys').values(row).execute();
  return row;
}

export async function findOpenDeploy(app: WharfApp, deployId: string) {
  const row = await app.db.selectFrom('deploys').selectAll().where('id', '=', deployId).executeTakeFirst();
  if (!row) throw notFound('Deploy');
  if (row.expires_at <= now()) throw new HttpError(410, 'The deploy expired; start a new one');
  return row;
}

export async function dropDeploy(app: WharfApp, deployId: string) {
  await app.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('deploy_files').where('deploy_id', '=', deployId).execute();
    await trx.deleteFrom('deploys').where('id', '=', deployId).execute();
  });
}
