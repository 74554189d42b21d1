import { HttpError } from '../http/errors.ts';

/**
 * What a failed call to the blob store means: the key is not there (an answer), the store did not
 * answer (a timeout, a refused or cut connection, a server error: try again later), or the store
 * refused the call (credentials, permissions, a request it does not take: an operator's matter).
 */
export type StoreFailure = 'absent' | 'unavailable' | 'refused';

/** The store did not answer; the API answers 503 STORE_UNAVAILABLE, the edge its 503 page. */
export class StoreUnavailable extends HttpError {
  constructor(cause: unknown) {
    super('STORE_UNAVAILABLE', 'The file store does not answer for now; try again in a few seconds');
    this.cause = cause;
  }
}

/** Errors of the AWS SDK, by name, that say the store did not answer (or answered that it could not). */
const UNAVAILABLE_NAMES = new Set([
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
  'ServiceUnavailable',
  'SlowDown',
  'InternalError',
]);

/** Node's errors of a connection or a disk that did not answer: the store's, or the network's to it. */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'EAI_AGAIN',
  'ENOTFOUND',
  // A folder store on a network file system, or a failing disk.
  'EIO',
  'ESTALE',
  'ENOTCONN',
]);

/** The one classifier of a blob store's failures, for the S3 bucket and the folder alike. */
export function storeFailureOf(error: unknown): StoreFailure {
  if (error instanceof StoreUnavailable) return 'unavailable';
  const failure = error as { name?: string; code?: string; $metadata?: { httpStatusCode?: number } };
  const status = failure?.$metadata?.httpStatusCode ?? 0;
  if (failure?.name === 'NoSuchKey' || failure?.name === 'NotFound' || failure?.code === 'ENOENT') return 'absent';
  // A missing bucket is the operator's to fix, not a missing key.
  if (status === 404 && failure.name !== 'NoSuchBucket') return 'absent';
  if (UNAVAILABLE_NAMES.has(failure?.name ?? '') || UNAVAILABLE_CODES.has(failure?.code ?? '') || status >= 500)
    return 'unavailable';
  return 'refused';
}

/** The error a caller gets: a store that did not answer becomes StoreUnavailable, anything else stays as it is. */
export function asStoreError(error: unknown): unknown {
  return storeFailureOf(error) === 'unavailable' && !(error instanceof StoreUnavailable)
    ? new StoreUnavailable(error)
    : error;
}
