import type { Database, Executor } from '../../../db/schema.ts';

/** Whether the deploy's files are exactly the release's: as many, and each path with the same content. */
async function sameFiles(trx: Executor, releaseId: string, deployId: string) {
  const [inRelease, inDeploy, alike] = await Promise.all([
    trx
      .selectFrom('release_files')
      .select(({ fn }) => fn.countAll<number>().as('files'))
      .where('release_id', '=', releaseId)
      .executeTakeFirstOrThrow(),
    trx
      .selectFrom('deploy_files')
      .select(({ fn }) => fn.countAll<number>().as('files'))
      .where('deploy_id', '=', deployId)
      .executeTakeFirstOrThrow(),
    trx
      .selectFrom('release_files')
      .innerJoin('deploy_files', (join) =>
        join
          .onRef('deploy_files.path', '=', 'release_files.path')
          .onRef('deploy_files.hash', '=', 'release_files.hash'),
      )
      .select(({ fn }) => fn.countAll<number>().as('files'))
      .where('release_files.release_id', '=', releaseId)
      .where('deploy_files.deploy_id', '=', deployId)
      .executeTakeFirstOrThrow(),
  ]);
  const files = Number(inDeploy.files);
  return Number(inRelease.files) === files && Number(alike.files) === files;
}

/**
 * The release that every one of the named branches serves already, when the deploy's files are
 * exactly its files (the same paths with the same content, its `_redirects`, `_headers` and
 * `.wharf.yml` among them): a CI job run again, which should not make a second, identical
 * release. Null when a branch is new, the branches serve different releases, or a file differs.
 */
export async function unchangedRelease(
  trx: Executor,
  site: Database['sites'],
  branchNames: string[],
  deployId: string,
): Promise<string | null> {
  const branches = await trx
    .selectFrom('branches')
    .select('release_id')
    .where('site_id', '=', site.id)
    .where('name', 'in', branchNames)
    .execute();
  const served = new Set(branches.map((branch) => branch.release_id));
  const [releaseId] = served;
  if (branches.length !== branchNames.length || served.size !== 1 || !releaseId) return null;
  return (await sameFiles(trx, releaseId, deployId)) ? releaseId : null;
}

/**
 * Whether the deploy found its release already made by an earlier upload (it was unchanged),
 * rather than making it: what a retried finalise must answer as the first did.
 */
export async function foundUnchanged(db: Executor, deployId: string, releaseId: string) {
  const deploy = await db.selectFrom('deploys').select('created_at').where('id', '=', deployId).executeTakeFirst();
  if (!deploy) return false;
  const earlier = await db
    .selectFrom('deploys')
    .select('id')
    .where('release_id', '=', releaseId)
    .where('id', '!=', deployId)
    .where('created_at', '<=', deploy.created_at)
    .executeTakeFirst();
  return earlier !== undefined;
}
