import type { Executor } from '../db/schema.ts';
import { contentTypeOf, isCompressible } from '../lib/contentType.ts';
import { now } from '../lib/ids.ts';
import type { StagedBlob } from '../storage/blobStore.ts';
import type { WharfApp } from '../wharfApp.ts';

export type Variant = 'identity' | 'br' | 'gzip';

/** Where a release file's content lives: `files/ab/abcdef…`, with `.br` and `.gz` beside it. */
export function blobKey(hash: string, variant: Variant = 'identity') {
  const suffix = variant === 'br' ? '.br' : variant === 'gzip' ? '.gz' : '';
  return `files/${hash.slice(0, 2)}/${hash}${suffix}`;
}

const MIN_COMPRESSIBLE_SIZE = 256;

/** Whether a file gets brotli and gzip variants: text formats large enough for them to pay. */
export function wantsVariants(size: number, filePath: string) {
  return size >= MIN_COMPRESSIBLE_SIZE && isCompressible(contentTypeOf(filePath));
}

/**
 * Moves a staged file into the content-addressed store and records the blob, live at once in its
 * unencoded form. Its brotli and gzip variants, when it wants them, are made later by worker
 * threads (variants.ts): a release must not wait for them. A failure leaves nothing behind.
 */
async function storeBlob(app: WharfApp, file: StagedBlob, filePath: string) {
  const pending = wantsVariants(file.size, filePath) ? 1 : 0;
  let committed = false;
  try {
    await file.commit(blobKey(file.hash));
    committed = true;
    await app.db
      .insertInto('blobs')
      .values({
        hash: file.hash,
        size: file.size,
        br_size: null,
        gz_size: null,
        variants_pending: pending,
        created_at: now(),
      })
      // A row whose file went missing: the file is back, and its variants are made again.
      .onConflict((oc) =>
        oc.column('hash').doUpdateSet({ size: file.size, br_size: null, gz_size: null, variants_pending: pending }),
      )
      .execute();
  } catch (error) {
    await file.discard().catch(() => undefined);
    // A file another upload of the same content has recorded meanwhile is its, not ours to remove.
    const recorded = await app.db
      .selectFrom('blobs')
      .select('hash')
      .where('hash', '=', file.hash)
      .executeTakeFirst()
      .catch(() => 'unknown');
    if (committed && !recorded) await app.blobs.remove(blobKey(file.hash)).catch(() => undefined);
    throw error;
  }
}

/**
 * Takes a received file into the store for an organization. A blob already stored is simply
 * dropped (files are shared across organizations), and the organization is recorded as having
 * sent it, which is what lets its later deploys skip the upload.
 */
export async function commitBlob(app: WharfApp, file: StagedBlob, filePath: string, orgId: string) {
  const existing = await app.db.selectFrom('blobs').select('hash').where('hash', '=', file.hash).executeTakeFirst();
  if (existing && (await app.blobs.size(blobKey(file.hash))) === file.size) await file.discard();
  else await storeBlob(app, file, filePath);
  await grantBlob(app.db, orgId, file.hash);
}

export async function grantBlob(db: Executor, orgId: string, hash: string) {
  await db
    .insertInto('org_blobs')
    .values({ org_id: orgId, hash, created_at: now() })
    .onConflict((oc) => oc.columns(['org_id', 'hash']).doNothing())
    .execute();
}

const CHUNK = 500;

/** Of these hashes, those the organization has uploaded itself and the store still holds. */
export async function blobsOfOrg(db: Executor, orgId: string, hashes: string[]) {
  const held = new Map<string, number>();
  for (let start = 0; start < hashes.length; start += CHUNK) {
    const rows = await db
      .selectFrom('org_blobs')
      .innerJoin('blobs', 'blobs.hash', 'org_blobs.hash')
      .select(['blobs.hash', 'blobs.size'])
      .where('org_blobs.org_id', '=', orgId)
      .where('org_blobs.hash', 'in', hashes.slice(start, start + CHUNK))
      .execute();
    for (const row of rows) held.set(row.hash, Number(row.size));
  }
  return held;
}
