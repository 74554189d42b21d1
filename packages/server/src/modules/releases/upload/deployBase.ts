import { createHash } from 'node:crypto';
import { BASE_HASH_PREFIX, type DeployBase, type ManifestEntry, manifestDigestText } from '@wharf/contract';
import type { Database, Executor } from '../../../db/schema.ts';
import { REQUEST_ENCODINGS } from '../../../http/bodyEncoding.ts';
import { httpError } from '../../../http/errors.ts';

/**
 * What a redeploy may make its manifest relative to: the release the branch serves (the site's
 * main branch when none is named), each file as its path and the start of its hash, which is all
 * the client needs to tell what changed. Its whole hash it never learns here; the digest of the
 * manifest it sends back is checked against the full ones.
 */
export async function deployBaseOf(db: Executor, site: Database['sites'], branchName: string | undefined) {
  const branch = await db
    .selectFrom('branches')
    .select('release_id')
    .where('site_id', '=', site.id)
    .$call((query) => (branchName ? query.where('name', '=', branchName) : query.where('id', '=', site.main_branch_id)))
    .executeTakeFirst();
  const encodings = [...REQUEST_ENCODINGS];
  if (!branch?.release_id) return { encodings, release: null } satisfies DeployBase;
  const files = await db
    .selectFrom('release_files')
    .select(['path', 'hash'])
    .where('release_id', '=', branch.release_id)
    .execute();
  const listed = files.map((file): [string, string] => [file.path, file.hash.slice(0, BASE_HASH_PREFIX)]);
  return { encodings, release: { _id: branch.release_id, files: listed } } satisfies DeployBase;
}

const baseChanged = (message: string) => httpError('DEPLOY_BASE_CHANGED', `${message}; send the whole manifest`);

/** Refuses a manifest whose base release was deleted since it was read. */
export async function baseMustStillExist(db: Executor, releaseId: string) {
  const release = await db.selectFrom('releases').select('id').where('id', '=', releaseId).executeTakeFirst();
  if (!release) throw baseChanged('The release this manifest is relative to was deleted');
}

export const manifestDigest = (files: ManifestEntry[]) =>
  createHash('sha256').update(manifestDigestText(files)).digest('hex');

/**
 * The whole manifest of a deploy: the one sent, or, for one relative to a release of the site,
 * that release's files less those removed, with those sent added or replaced, and checked against
 * the digest the client made of its own: a base deleted since, or a change the client got wrong,
 * is a 409 after which it sends the whole manifest.
 */
export async function wholeManifest(
  db: Executor,
  site: Database['sites'],
  body: { files: ManifestEntry[]; base?: { release: string; digest: string }; removed?: string[] },
): Promise<ManifestEntry[]> {
  if (!body.base) return body.files;
  const release = await db
    .selectFrom('releases')
    .select('id')
    .where('id', '=', body.base.release)
    .where('site_id', '=', site.id)
    .executeTakeFirst();
  if (!release) throw baseChanged('The release this manifest is relative to is not one of the site');
  const rows = await db
    .selectFrom('release_files')
    .select(['path', 'hash', 'size'])
    .where('release_id', '=', release.id)
    .execute();
  const files = new Map(rows.map((row) => [row.path, { path: row.path, hash: row.hash, size: Number(row.size) }]));
  for (const path of body.removed ?? [])
    if (!files.delete(path)) throw baseChanged(`"${path}" is not a file of the release to remove`);
  for (const file of body.files) files.set(file.path, file);
  const whole = [...files.values()];
  if (manifestDigest(whole) !== body.base.digest)
    throw baseChanged('The release with these changes is not the manifest the digest names');
  return whole;
}
