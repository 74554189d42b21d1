import type { Multipart } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { HttpError, httpError } from './errors.ts';
import { uploadWatchOf } from './uploadBody.ts';

/**
 * Failures of the multipart parser itself: a body without its boundary, or one that ends in the
 * middle of a part. The parser gives them no code, so they are marked where they come out of it.
 */
const parserFailures = new WeakSet<object>();

const isParserFailure = (error: unknown) =>
  error instanceof Error && !(error instanceof HttpError) && (error as { code?: unknown }).code === undefined;

/** The 400 for a body the multipart parser could not read, or null when the failure is another. */
export function malformedMultipart(error: unknown): HttpError | null {
  if (!(error instanceof Error) || !parserFailures.has(error)) return null;
  const detail = error.message.replace(/^Multipart: /, '');
  return httpError(
    'MULTIPART_INVALID',
    `The request body is not valid multipart/form-data: ${detail.charAt(0).toLowerCase()}${detail.slice(1)}`,
  );
}

function marked(error: unknown) {
  if (isParserFailure(error)) parserFailures.add(error as Error);
  return malformedMultipart(error) ?? error;
}

/**
 * The parts of a multipart request, one at a time, as `request.parts()` gives them, with the
 * parser's own failures (also those a file part's stream reports to whoever reads it) answered
 * as 400 MULTIPART_INVALID rather than 500. Every multipart upload reads its body through this.
 */
export async function* readParts(request: FastifyRequest, options: Parameters<FastifyRequest['parts']>[0]) {
  // Under the upload's timeouts: a body that stalls between parts or inside one fails the wait.
  const watch = uploadWatchOf(request);
  const parts = request.parts(options)[Symbol.asyncIterator]();
  for (;;) {
    let next: IteratorResult<Multipart>;
    try {
      next = await Promise.race([parts.next(), watch.failed()]);
    } catch (error) {
      throw marked(error);
    }
    if (next.done) return;
    if (next.value.type === 'file') {
      watch.guard(next.value.file);
      // The whole body may have been parsed already (a slow reader, a small body): a part can come errored.
      if (next.value.file.errored) marked(next.value.file.errored);
      next.value.file.on('error', marked);
    }
    yield next.value;
  }
}
