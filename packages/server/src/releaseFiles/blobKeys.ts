/** The forms a blob's content is stored in: as it is, and compressed (brotli and gzip). */
export const VARIANTS = ['identity', 'br', 'gzip'] as const;
export type Variant = (typeof VARIANTS)[number];

/** Where a release file's content lives in the blob store: `files/ab/abcdef…`, with `.br` and `.gz` beside it. */
export function blobKey(hash: string, variant: Variant = 'identity') {
  const suffix = variant === 'br' ? '.br' : variant === 'gzip' ? '.gz' : '';
  return `files/${hash.slice(0, 2)}/${hash}${suffix}`;
}
