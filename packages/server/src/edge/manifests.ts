import { contentTypeOf } from '@wharf/contract';
import type { Db } from '../db/schema.ts';
import { readJson } from '../lib/json.ts';
import { LruCache } from '../lib/lru.ts';
import type { StoredRules } from '../releaseFiles/storedRules.ts';
import { compileHeaders, compileRedirects, type HeaderMatcher, type RedirectMatcher } from '../releaseRules/index.ts';
import { isPublicPath } from './publicFiles.ts';

export interface ServedFile {
  path: string;
  hash: string;
  size: number;
  brSize: number | null;
  gzSize: number | null;
  /** Its variants are still being made: served unencoded, or compressed on the fly, meanwhile. */
  variantsPending: boolean;
  contentType: string;
  /** The release's creation as an HTTP date: a release never changes once made. */
  lastModified: string;
  /** The same, in milliseconds truncated to whole seconds, for If-Modified-Since and the like. */
  modifiedAt: number;
}

/** A release's `_redirects` and `_headers`, compiled once when its manifest is loaded; null when it has none. */
export interface CompiledRules {
  redirects: RedirectMatcher | null;
  headers: HeaderMatcher | null;
}

/** Path → file, and the release's own rules when it brings any. */
export type Manifest = Map<string, ServedFile> & { rules?: CompiledRules };

function compileRules(stored: StoredRules): CompiledRules | undefined {
  if (stored.redirects.length === 0 && stored.headers.length === 0) return undefined;
  return {
    redirects: stored.redirects.length > 0 ? compileRedirects(stored.redirects) : null,
    headers: stored.headers.length > 0 ? compileHeaders(stored.headers) : null,
  };
}

/**
 * Release manifests (path → file) for the edge, loaded once per release and kept while used.
 * A release never changes after it is created, so a cached manifest never goes stale; only its
 * files' variants may appear later, which PendingVariants follows. Files the
 * edge must not serve (publicFiles.ts) are left out, so that no way of resolving a path finds them.
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
    const release = await this.db
      .selectFrom('releases')
      .select(['created_at', 'rules'])
      .where('id', '=', releaseId)
      .executeTakeFirst();
    // A release deleted meanwhile has no files left for the query below: nothing is served from it.
    const createdAt = release ? Date.parse(release.created_at) : Date.now();
    const modifiedAt = Math.floor(createdAt / 1000) * 1000;
    const lastModified = new Date(modifiedAt).toUTCString();
    const rows = await this.db
      .selectFrom('release_files')
      .innerJoin('blobs', 'blobs.hash', 'release_files.hash')
      .select(['release_files.path', 'release_files.hash', 'release_files.size', 'blobs.br_size', 'blobs.gz_size'])
      .select('blobs.variants_pending')
      .where('release_files.release_id', '=', releaseId)
      .execute();
    const manifest: Manifest = new Map(
      rows
        .filter((row) => isPublicPath(row.path))
        .map((row) => [
          row.path,
          {
            path: row.path,
            hash: row.hash,
            size: Number(row.size),
            brSize: row.br_size === null ? null : Number(row.br_size),
            gzSize: row.gz_size === null ? null : Number(row.gz_size),
            variantsPending: Number(row.variants_pending) === 1,
            contentType: contentTypeOf(row.path),
            lastModified,
            modifiedAt,
          },
        ]),
    );
    if (release) manifest.rules = compileRules(readJson<StoredRules>(release.rules));
    this.cache.set(releaseId, manifest);
    return manifest;
  }
}
