import { PassThrough, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { httpError } from './errors.ts';

/** zstd's streams came with Node 22.15 and 23.8; where they are missing, only gzip is offered. */
const hasZstd = typeof zlib.createZstdDecompress === 'function';

/** The content codings request bodies may come in, best first: what `Accept-Encoding` answers and a deploy's base lists. */
export const REQUEST_ENCODINGS: readonly string[] = hasZstd ? ['zstd', 'gzip'] : ['gzip'];

function decoderOf(encoding: string) {
  if (encoding === 'gzip' || encoding === 'x-gzip') return zlib.createGunzip();
  if (encoding === 'zstd' && hasZstd) return zlib.createZstdDecompress();
  return null;
}

/** The request's content coding, or null for none (`identity` or no header). */
function codingOf(request: FastifyRequest) {
  const header = request.headers['content-encoding']?.trim().toLowerCase();
  return !header || header === 'identity' ? null : header;
}

/**
 * A request body as its handler reads it: a compressed one (`Content-Encoding: zstd` or `gzip`)
 * decoded on the way, so that every limit of the route (its body limit, a file's announced size,
 * an archive's) applies to the bytes it stands for, and a decompression bomb stops at the limit
 * like any large body. Bytes that do not decode fail the reading with a 400. A coding the route
 * does not take (or none Wharf knows) is refused before the body is read, with the codings it does.
 */
export function decodedRequestBody(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: Readable,
  takesCodings: boolean,
): Readable {
  const coding = codingOf(request);
  if (coding === null) return payload;
  const decoder = takesCodings ? decoderOf(coding) : null;
  if (!decoder) {
    if (takesCodings) reply.header('accept-encoding', REQUEST_ENCODINGS.join(', '));
    throw httpError(
      'ENCODING_UNSUPPORTED',
      takesCodings
        ? `Send the body in one of these codings, or none: ${REQUEST_ENCODINGS.join(', ')}`
        : 'This route takes its body without a content coding',
    );
  }
  const decoded = new PassThrough() as PassThrough & { receivedEncodedLength?: number };
  let encodedLength = 0;
  // Fastify compares the bytes that came with Content-Length, and checks both against the limit.
  payload.on('data', (chunk: Buffer) => {
    encodedLength += chunk.length;
    decoded.receivedEncodedLength = encodedLength;
  });
  payload.on('error', (error) => decoded.destroy(error));
  decoder.on('error', (error) =>
    decoded.destroy(httpError('BODY_INVALID', `The body is not valid ${coding}: ${error.message}`)),
  );
  decoded.once('close', () => {
    payload.unpipe(decoder);
    decoder.destroy();
  });
  payload.pipe(decoder).pipe(decoded);
  return decoded;
}
