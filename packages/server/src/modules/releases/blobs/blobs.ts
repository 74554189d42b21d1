import { contentTypeOf, isCompressible } from '@wharf/contract';
import { jsonValues } from '../../../db/jsonRows.ts';
import type { Db, Executor } from '../../../db/schema.ts';
import { now } from '../../../lib/ids.ts';
import { inParallel } from '../../../lib/inParallel.ts';
import { blobKey } from '../../../releaseFiles/blobKeys.ts';
import type { StagedBlob } from '../../../storage/blobStore.ts';
import type { ReleaseParts } from '../parts.ts';
import { whileNoBlobIsDeleted } from './blobLock.ts';

const MIN_COMPRESSIBLE_SIZE = 256;

/** Whether a file gets brotli and gzip variants: text formats large enough for them to pay. */
export function wantsVariants(size: number, filePath: string) {
  return size >= MIN_COMPRESSIBLE_SIZE && isCompressible(contentTypeOf(filePath));
}

/** A file received for a release: its content, staged, and its path in the release. */
export interface ReceivedFile {
  blob: StagedBlob;
  path: string;
}

const CHUNK = 500;

/**
 * The recorded size of each of these blobs that is not dead. Read under the blob lock, once the
 * deploy's reference to them is committed: a deletion under way is waited for, and none starts
 * on them afterwards.
 */
async function liveSizes(db: Db, hashes: string[]) {
  return whileNoBlobIsDeleted(db, async (trx) => {
    const sizes = new Map<string, number>();
    for (let start = 0; start < hashes.length; start += CHUNK) {
      const rows = await trx
        .selectFrom('blobs')
        .select(['hash', 'size'])
        .where('hash', 'in', hashes.slice(start, start + CHUNK))
        .where('dead', '=', 0)
        .execute();
      for (const row of rows) sizes.set(row.hash, Number(row.size));
    }
    return sizes;
  });
}

/** Of the received files, one per content that the store does not hold whole yet; the rest are spare copies. */
async function sortOutNewContent(parts: ReleaseParts, files: ReceivedFile[]) {
  const recorded = await liveSizes(parts.db, [...new Set(files.map((file) => file.blob.hash))]);
  const toStore = new Map<string, ReceivedFile>();
  const spare: StagedBlob[] = [];
  // A blob written straight under its key is the store's copy already: it is recorded, never spare.
  for (const file of files) if (file.blob.placed) toStore.set(file.blob.hash, file);
  await inParallel(
    files.filter((file) => !file.blob.placed),
    16,
    async (file) => {
      const { hash, size } = file.blob;
      // A row whose file went missing is not held, nor a dead one: the file is stored again.
      const held = recorded.get(hash) === size && (await parts.blobs.size(blobKey(hash))) === size;
      if (held || toStore.has(hash)) spare.push(file.blob);
      else toStore.set(hash, file);
    },
  );
  return { toStore: [...toStore.values()], spare };
}

/** Records stored blobs, live at once in their unencoded form (a dead one again); variants are made later (variants.ts). */
async function recordBlobs(db: Executor, stored: ReceivedFile[]) {
  for (let start = 0; start < stored.length; start += CHUNK) {
    const rows = stored.slice(start, start + CHUNK).map(({ blob, path }) => ({
      hash: blob.hash,
      size: blob.size,
      br_size: null,
      gz_size: null,
      variants_pending: wantsVariants(blob.size, path) ? 1 : 0,
      created_at: now(),
      dead: 0,
    }));
    await db
      .insertInto('blobs')
      .values(rows)
      // A row whose file went missing, or a dead one: the file is back, and its variants are made again.
      .onConflict((oc) =>
        oc.column('hash').doUpdateSet((eb) => ({
          size: eb.ref('excluded.size'),
          br_size: null,
          gz_size: null,
          variants_pending: eb.ref('excluded.variants_pending'),
          dead: 0,
        })),
      )
      .execute();
  }
}

/**
 * Records blobs whose files may be in the store without a row (an upload that failed half-way, a
 * crash's leftovers) as dead, so that they are deleted the collection's way; a row already there
 * stays as it is.
 */
export async function recordDead(db: Executor, hashes: string[]) {
  for (let start = 0; start < hashes.length; start += CHUNK) {
    const createdAt = now();
    await db
      .insertInto('blobs')
      .values(
        hashes.slice(start, start + CHUNK).map((hash) => ({
          hash,
          size: 0,
          br_size: null,
          gz_size: null,
          variants_pending: 0,
          created_at: createdAt,
          dead: 1,
        })),
      )
      .onConflict((oc) => oc.column('hash').doNothing())
      .execute();
  }
}

/**
 * Takes received files into the content-addressed store for an organization, all in one step:
 * their contents are flushed together and their rows written in one transaction, so a release of
 * thousands of files costs a few steps, not thousands. Content the store already holds is dropped
 * (files are shared across organizations); the organization is recorded as having sent each file,
 * which is what lets its later deploys skip the upload. The deploy's reference to the files
 * (its rows of them) is committed before. What a failure leaves in the store is recorded dead, for
 * the collection, which takes it at once when the deploy is dropped.
 */
export async function commitBlobs(parts: ReleaseParts, files: ReceivedFile[], orgId: string) {
  if (files.length === 0) return;
  let sorted: Awaited<ReturnType<typeof sortOutNewContent>>;
  try {
    sorted = await sortOutNewContent(parts, files);
  } catch (error) {
    await Promise.all(files.map((file) => file.blob.discard().catch(() => undefined)));
    throw error;
  }
  const { toStore, spare } = sorted;
  await Promise.all(spare.map((blob) => blob.discard()));
  try {
    await parts.blobs.commitAll(toStore.map(({ blob }) => ({ blob, key: blobKey(blob.hash) })));
    await parts.db.transaction().execute(async (trx) => {
      await recordBlobs(trx, toStore);
      await grantBlobs(trx, orgId, [...new Set(files.map((file) => file.blob.hash))]);
    });
  } catch (error) {
    await Promise.all(toStore.map(({ blob }) => blob.discard().catch(() => undefined)));
    // Not removed here: another upload may be storing the same content; the collection knows.
    await recordDead(
      parts.db,
      toStore.map(({ blob }) => blob.hash),
    ).catch(() => undefined);
    throw error;
  }
}

export async function grantBlobs(db: Executor, orgId: string, hashes: string[]) {
  for (let start = 0; start < hashes.length; start += CHUNK) {
    const createdAt = now();
    await db
      .insertInto('org_blobs')
      .values(hashes.slice(start, start + CHUNK).map((hash) => ({ org_id: orgId, hash, created_at: createdAt })))
      .onConflict((oc) => oc.columns(['org_id', 'hash']).doNothing())
      .execute();
  }
}

/** Of these hashes, those the organization has uploaded itself and the store still holds (not dead). */
export async function blobsOfOrg(db: Executor, orgId: string, hashes: string[]) {
  const rows = await db
    .selectFrom('org_blobs')
    .innerJoin('blobs', 'blobs.hash', 'org_blobs.hash')
    .select(['blobs.hash', 'blobs.size'])
    .where('org_blobs.org_id', '=', orgId)
    .where('blobs.dead', '=', 0)
    .where('org_blobs.hash', 'in', db.selectFrom(jsonValues(db, hashes).as('wanted')).select('wanted.value'))
    .execute();
  return new Map(rows.map((row) => [row.hash, Number(row.size)]));
}
