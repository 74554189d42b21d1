import type { Db } from '../db/schema.ts';
import { LruCache } from '../lib/lru.ts';
import type { ServedFile } from './manifests.ts';

/** A blob's variants as the database has them now. */
export interface BlobVariants {
  brSize: number | null;
  gzSize: number | null;
  pending: boolean;
}

export type LookUpVariants = (hash: string) => Promise<BlobVariants | undefined>;

/** How often, at most, the edge asks after one blob whose variants are still being made. */
const ASK_EVERY_MS = 1000;

/**
 * Follows blobs served before their brotli and gzip variants existed. A file whose variants are
 * pending is asked after (at most once a second per blob, never while an answer waits); once they
 * are made, every manifest's copy of the file takes their sizes on its next request. Manifests are
 * never reloaded for it, and no message between processes is needed.
 */
export class PendingVariants {
  private readonly done = new LruCache<string, BlobVariants>(10_000);
  private readonly askedAt = new Map<string, number>();

  constructor(
    private readonly lookUp: LookUpVariants,
    private readonly onError: (error: unknown) => void,
    private readonly askEveryMs = ASK_EVERY_MS,
  ) {}

  /**
   * Brings a pending file up to date when its variants are known to be done, and asks the database
   * otherwise (the answer serves later requests). Answers whether the file changed now.
   */
  refresh(file: ServedFile): boolean {
    const known = this.done.get(file.hash);
    if (known) {
      apply(file, known);
      return true;
    }
    const time = Date.now();
    const asked = this.askedAt.get(file.hash);
    if (asked === undefined || time - asked >= this.askEveryMs) {
      this.askedAt.set(file.hash, time);
      this.ask(file.hash);
    }
    return false;
  }

  private ask(hash: string) {
    this.lookUp(hash).then(
      (variants) => {
        if (variants?.pending) return;
        this.askedAt.delete(hash);
        // A blob gone from the database: the file is served as it is until its release goes too.
        this.done.set(hash, variants ?? { brSize: null, gzSize: null, pending: false });
      },
      (error) => this.onError(error),
    );
  }
}

function apply(file: ServedFile, variants: BlobVariants) {
  file.brSize = variants.brSize;
  file.gzSize = variants.gzSize;
  file.variantsPending = false;
}

export async function variantsOfBlob(db: Db, hash: string): Promise<BlobVariants | undefined> {
  const row = await db
    .selectFrom('blobs')
    .select(['br_size', 'gz_size', 'variants_pending'])
    .where('hash', '=', hash)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    brSize: row.br_size === null ? null : Number(row.br_size),
    gzSize: row.gz_size === null ? null : Number(row.gz_size),
    pending: Number(row.variants_pending) === 1,
  };
}
