import { constants, createBrotliCompress, createGzip } from 'node:zlib';
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

/** A compressed copy of a staged file, kept only when it saves bytes. */
async function compressedVariant(app: WharfApp, file: StagedBlob, variant: 'br' | 'gzip') {
  const compressor =
    variant === 'br'
      ? createBrotliCompress({
          params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: file.size },
        })
      : createGzip({ level: 9 });
  const compressed = await app.blobs.stage(file.read(), compressor);
  if (compressed.size < file.size) return compressed;
  await compressed.discard();
  return null;
}

/**
 * Moves a staged file into the content-addressed store with brotli and gzip variants for text
 * formats, then records the blob: its row exists only once every variant is durably stored. A
 * failure leaves neither files nor staged copies behind.
 */
async function storeBlob(app: WharfApp, file: StagedBlob, filePath: string) {
  const staged: StagedBlob[] = [file];
  const committed: string[] = [];
  try {
    const sizes = { br: null as number | null, gzip: null as number | null };
    if (file.size >= MIN_COMPRESSIBLE_SIZE && isCompressible(contentTypeOf(filePath))) {
      for (const variant of ['br', 'gzip'] as const) {
        const compressed = await compressedVariant(app, file, variant);
        if (!compressed) continue;
        staged.push(compressed);
        await compressed.commit(blobKey(file.hash, variant));
        committed.push(blobKey(file.hash, variant));
        sizes[variant] = compressed.size;
      }
    }
    await file.commit(blobKey(file.hash));
    committed.push(blobKey(file.hash));
    await app.db
      .insertInto('blobs')
      .values({ hash: file.hash, size: file.size, br_size: sizes.br, gz_size: sizes.gzip, created_at: now() })
      .onConflict((oc) => oc.column('hash').doUpdateSet({ size: file.size, br_size: sizes.br, gz_size: sizes.gzip }))
      .execute();
  } catch (error) {
    await Promise.allSettled(staged.map((copy) => copy.discard()));
    // Files another upload of the same content has recorded meanwhile are its, not ours to remove.
    const recorded = await app.db
      .selectFrom('blobs')
      .select('hash')
      .where('hash', '=', file.hash)
      .executeTakeFirst()
      .catch(() => 'unknown');
    if (!recorded) await Promise.allSettled(committed.map((key) => app.blobs.remove(key)));
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
