import { LruCache } from '../lib/lru.ts';
import type { Variant } from '../releaseFiles/blobKeys.ts';

/** How much a client wants each form the edge can send, as q-values from 0 (refused) to 1. */
export interface EncodingWeights {
  br: number;
  gzip: number;
  zstd: number;
  identity: number;
}

/** RFC 9110 §12.4.2: `0`, `0.5`, `1.000`; anything else makes the whole element void. */
const WEIGHT = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/** The weight of one `coding;param=value;…` element; null when its `q` is malformed. */
function weightOf(params: string[]): number | null {
  for (const param of params) {
    const equals = param.indexOf('=');
    if (equals === -1 || param.slice(0, equals).trim().toLowerCase() !== 'q') continue;
    const value = param.slice(equals + 1).trim();
    return WEIGHT.test(value) ? Number(value) : null;
  }
  return 1;
}

/**
 * The unencoded form when the client does not weigh it: acceptable (RFC 9110 §12.5.3), but below
 * every weight a client can write (0.001 is the least), so that `gzip;q=0.5` still gets gzip.
 */
const UNWEIGHED_IDENTITY = 0.0005;

/**
 * RFC 9110 §12.5.3: codings are case-insensitive, `x-gzip` is gzip, `*` stands for every coding not
 * named, and the unencoded form stays acceptable unless `identity;q=0` (or `*;q=0` without an
 * `identity` entry) refuses it.
 */
export function parseAcceptEncoding(header: string): EncodingWeights {
  const named = new Map<string, number>();
  for (const element of header.split(',')) {
    const [coding = '', ...params] = element.split(';');
    const name = coding.trim().toLowerCase();
    const weight = weightOf(params);
    if (name === '' || weight === null) continue;
    named.set(name === 'x-gzip' ? 'gzip' : name, weight);
  }
  const star = named.get('*');
  return {
    br: named.get('br') ?? star ?? 0,
    gzip: named.get('gzip') ?? star ?? 0,
    zstd: named.get('zstd') ?? star ?? 0,
    identity: named.get('identity') ?? (star === 0 ? 0 : UNWEIGHED_IDENTITY),
  };
}

/** Browsers send a handful of distinct headers: parse each once, keep a bounded number. */
const parsed = new LruCache<string, EncodingWeights>(1000);
/** Longer headers are parsed every time rather than kept: the cache stays small whatever clients send. */
const CACHED_HEADER_LENGTH = 256;

function weightsOf(header: string): EncodingWeights {
  let weights = parsed.get(header);
  if (!weights) {
    weights = parseAcceptEncoding(header);
    if (header.length <= CACHED_HEADER_LENGTH) parsed.set(header, weights);
  }
  return weights;
}

/**
 * The stored form to send: the one the client weighs highest among those the file has; on a tie,
 * the smaller (brotli, then gzip, then none). When the client accepts none of them, the file goes
 * unencoded anyway, as nginx does: a 406 would leave the visitor with nothing.
 */
export function negotiateVariant(header: string | undefined, hasBr: boolean, hasGzip: boolean): Variant {
  if (!header || (!hasBr && !hasGzip)) return 'identity';
  const weights = weightsOf(header);
  const br = hasBr ? weights.br : 0;
  const gzip = hasGzip ? weights.gzip : 0;
  if (br > 0 && br >= gzip && br >= weights.identity) return 'br';
  if (gzip > 0 && gzip >= weights.identity) return 'gzip';
  return 'identity';
}

/**
 * The coding of an answer compressed as it is sent (the API's few large answers): zstd when the
 * client weighs it at least as gzip and it can be made here, else gzip, else none.
 */
export function negotiateAnswerCoding(header: string | undefined, canZstd: boolean): 'zstd' | 'gzip' | 'identity' {
  if (!header) return 'identity';
  const weights = weightsOf(header);
  const zstd = canZstd ? weights.zstd : 0;
  if (zstd > 0 && zstd >= weights.gzip && zstd >= weights.identity) return 'zstd';
  if (weights.gzip > 0 && weights.gzip >= weights.identity) return 'gzip';
  return 'identity';
}
