import type { Db } from '../db/schema.ts';
import { contentTypeOf } from '../lib/contentType.ts';
import { LruCache } from './lru.ts';

export interface ServedFile {
  path: string;
  hash: string;
  size: number;
  brSize: number | null;
  gzSize: number | null;
  contentType: string;
}

export type Manifest = Map<string, ServedFile>;

/**
 * Release manifests (path → file) for the edge, loaded once per release and kept while used.
 * A release never changes after it is created, so a cached manifest never goes stale.
 */
export class ManifestCache {
  private readonly cache: LruCache<string, Manifest>;
  private readonly loading = new Map<string, Promise<Manifest>>();

  constructor(
    private readonly db: Db,
    maxFiles = 500_000,
  ) {
    this.cache = new LruCache(maxFiles, (manifest) => Math.max(1, manifest.size));
  }

  get(releaseId: string): Promise<Manifest> | Manifest {
    const cached = this.cache.get(releaseId);
    if (cached) return cached;
    let pending = this.loading.get(releaseId);
    if (!pending) {
      pending = this.load(releaseId).finally(() => this.loading.delete(releaseId));
      this.loading.set(releaseId, pending);
    }
    return pending;
  }

  private async load(releaseId: string) {
    const rows = await this.db
      .selectFrom('release_files')
      .innerJoin('blobs', 'blobs.hash', 'release_files.hash')
      .select(['release_files.path', 'release_files.hash', 'release_files.size', 'blobs.br_size', 'blobs.gz_size'])
      .where('release_files.release_id', '=', releaseId)
      .execute();
    const manifest: Manifest = new Map(
      rows.map((row) => [
        row.path,
        {
          path: row.path,
          hash: row.hash,
          size: Number(row.size),
          brSize: row.br_size === null ? null : Number(row.br_size),
          gzSize: row.gz_size === null ? null : Number(row.gz_size),
          contentType: contentTypeOf(row.path),
        },
      ]),
    );
    this.cache.set(releaseId, manifest);
    return manifest;
  }
}
