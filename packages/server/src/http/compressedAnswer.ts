import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { negotiateAnswerCoding } from './acceptEncoding.ts';

const gzip = promisify(zlib.gzip);
const zstd = typeof zlib.zstdCompress === 'function' ? promisify(zlib.zstdCompress) : null;

/**
 * Sends a JSON answer compressed as the client accepts (zstd, else gzip, else as it is): for the
 * few answers large enough to matter on a slow link, such as a release's file list. The API's
 * other answers are small and go as they are.
 */
export async function sendCompressedJson(request: FastifyRequest, reply: FastifyReply, value: unknown) {
  const json = Buffer.from(JSON.stringify(value));
  const coding = negotiateAnswerCoding(request.headers['accept-encoding'], zstd !== null);
  reply.header('vary', 'Accept-Encoding').type('application/json; charset=utf-8');
  if (coding === 'identity') return reply.send(json);
  return reply.header('content-encoding', coding).send(await (coding === 'zstd' && zstd ? zstd(json) : gzip(json)));
}
