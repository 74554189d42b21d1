import { LOGO_MAX_BYTES } from '@wharf/contract';
import type { FastifyRequest } from 'fastify';
import { httpError, invalidField } from '../../http/errors.ts';
import { readParts } from '../../http/multipart.ts';

const signatures: [string, (bytes: Buffer) => boolean][] = [
  ['image/png', (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))],
  ['image/jpeg', (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff],
  ['image/gif', (b) => b.subarray(0, 4).toString('latin1') === 'GIF8'],
  [
    'image/webp',
    (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
  ],
];

/** The image type told by the file's first bytes; what the client claims is not trusted. */
export function sniffImageType(bytes: Buffer): string | null {
  return signatures.find(([, matches]) => matches(bytes))?.[0] ?? null;
}

/** Reads the multipart field `file` of a logo upload, refusing what is too large or not an image. */
export async function readLogo(request: FastifyRequest): Promise<{ bytes: Buffer; type: string }> {
  if (!request.isMultipart())
    throw httpError('MEDIA_TYPE_UNSUPPORTED', 'Send the logo as multipart/form-data with a field named file');
  for await (const part of readParts(request, { limits: { fileSize: LOGO_MAX_BYTES, files: 1 } })) {
    if (part.type !== 'file') continue;
    if (part.fieldname !== 'file') break;
    const bytes = await part.toBuffer().catch((error: { code?: string }) => {
      if (error.code === 'FST_REQ_FILE_TOO_LARGE') throw httpError('LOGO_TOO_LARGE', 'The logo must be at most 1 MiB');
      throw error;
    });
    if (part.file.truncated) throw httpError('LOGO_TOO_LARGE', 'The logo must be at most 1 MiB');
    const type = sniffImageType(bytes);
    if (!type) throw httpError('MEDIA_TYPE_UNSUPPORTED', 'The logo must be a PNG, JPEG, WebP or GIF image');
    return { bytes, type };
  }
  throw invalidField('file', 'Input is required');
}
