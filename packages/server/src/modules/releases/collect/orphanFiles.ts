import type { Db } from '../../../db/schema.ts';
import type { StoredKey } from '../../../storage/blobStore.ts';
import type { LogoOwnerKind } from '../../logos/logoUrl.ts';
import { recordDead } from '../blobs/blobs.ts';
import type { ReleaseParts } from '../parts.ts';
import { deleteDeadBlobs } from './deadBlobs.ts';
import { isCollectionHeld } from './holds.ts';

const CHUNK = 500;

/** A release file's key (see blobKey): the content's hash, maybe with a compressed variant's suffix. */
const FILE_KEY = /^files\/[0-9a-f]{2}\/([0-9a-f]{64})(?:\.br|\.gz)?$/;
const LOGO_KEY = /^logos\/(orgs|teams|sites)\/([A-Za-z0-9_-]+)$/;

/**
 * Removes the release files of these keys that no row accounts for, the collection's way: recorded
 * dead, then deleted under the blob lock, so that an upload storing the same content meanwhile is
 * waited for, not raced. Keys of no known shape (a crashed write's leftovers) are removed at once.
 */
async function removeUnrecordedFiles(parts: ReleaseParts, keys: string[]) {
  const unknown = keys.filter((key) => !FILE_KEY.test(key));
  for (const key of unknown) await parts.blobs.remove(key);
  const hashes = [...new Set(keys.flatMap((key) => FILE_KEY.exec(key)?.[1] ?? []))];
  const rows = hashes.length
    ? await parts.db.selectFrom('blobs').select('hash').where('hash', 'in', hashes).execute()
    : [];
  const recorded = new Set(rows.map((row) => row.hash));
  const unrecorded = hashes.filter((hash) => !recorded.has(hash));
  await recordDead(parts.db, unrecorded);
  return unknown.length + (await deleteDeadBlobs(parts, unrecorded));
}

async function removeUnrecordedLogos(parts: ReleaseParts, keys: string[]) {
  const orphans = await unrecordedLogos(parts.db, keys);
  for (const key of orphans) await parts.blobs.remove(key);
  return orphans.length;
}

async function unrecordedLogos(db: Db, keys: string[]) {
  const owners = keys.flatMap((key) => {
    const match = LOGO_KEY.exec(key);
    return match ? [{ kind: match[1] as LogoOwnerKind, id: match[2]! }] : [];
  });
  const recorded = new Set<string>();
  for (const kind of ['orgs', 'teams', 'sites'] as const) {
    const ids = owners.filter((owner) => owner.kind === kind).map((owner) => owner.id);
    if (ids.length === 0) continue;
    const rows = await db
      .selectFrom(kind)
      .select('id')
      .where('id', 'in', ids)
      .where('logo_type', 'is not', null)
      .execute();
    for (const row of rows) recorded.add(`logos/${kind}/${row.id}`);
  }
  return keys.filter((key) => !recorded.has(key));
}

/** Hands `removeUnrecorded`, chunk by chunk, the keys under `folder` written before `cutoff`; answers how many went. */
async function sweepFolder(
  parts: ReleaseParts,
  folder: string,
  cutoff: number,
  removeUnrecorded: (parts: ReleaseParts, keys: string[]) => Promise<number>,
  held?: AbortSignal,
) {
  let removed = 0;
  const removeChunk = async (stored: StoredKey[]) => {
    held?.throwIfAborted();
    removed += await removeUnrecorded(
      parts,
      stored.map((entry) => entry.key),
    );
  };
  let chunk: StoredKey[] = [];
  for await (const stored of parts.blobs.list(folder)) {
    if (stored.modifiedAt.getTime() > cutoff) continue;
    chunk.push(stored);
    if (chunk.length === CHUNK) {
      await removeChunk(chunk);
      chunk = [];
    }
  }
  if (chunk.length > 0) await removeChunk(chunk);
  return removed;
}

/**
 * Removes files of the store that no row accounts for: leftovers of a crash between writing a
 * file and recording it. Files younger than `graceMs` are left alone: an upload writes its files
 * before the row that records them. Nothing while a backup holds the collection off.
 */
export async function removeOrphanFiles(parts: ReleaseParts, graceMs: number, at = new Date(), held?: AbortSignal) {
  if (await isCollectionHeld(parts.db)) return 0;
  const cutoff = at.getTime() - graceMs;
  return (
    (await sweepFolder(parts, 'files/', cutoff, removeUnrecordedFiles, held)) +
    (await sweepFolder(parts, 'logos/', cutoff, removeUnrecordedLogos, held))
  );
}
