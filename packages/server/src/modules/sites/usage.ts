import type { SiteUsage } from '@wharf/contract';
import type { Executor } from '../../db/schema.ts';

/**
 * The disk a site's releases take: each distinct stored file once, however many of its releases
 * (or other sites) share it, with the compressed copies kept beside it.
 */
export async function siteUsage(db: Executor, siteId: string): Promise<SiteUsage> {
  const hashes = db
    .selectFrom('release_files')
    .innerJoin('releases', 'releases.id', 'release_files.release_id')
    .select('release_files.hash')
    .where('releases.site_id', '=', siteId);
  const files = await db
    .selectFrom('blobs')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('files'),
      eb.fn.sum<number | string | null>('size').as('bytes'),
      eb.fn.sum<number | string | null>(eb.fn.coalesce('br_size', eb.lit(0))).as('br'),
      eb.fn.sum<number | string | null>(eb.fn.coalesce('gz_size', eb.lit(0))).as('gz'),
    ])
    .where('hash', 'in', hashes)
    .executeTakeFirstOrThrow();
  const releases = await db
    .selectFrom('releases')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('site_id', '=', siteId)
    .executeTakeFirstOrThrow();
  return {
    releases: Number(releases.count),
    files: Number(files.files),
    bytes: Number(files.bytes ?? 0),
    compressedBytes: Number(files.br ?? 0) + Number(files.gz ?? 0),
  };
}
