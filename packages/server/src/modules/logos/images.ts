import { LOGO_MAX_BYTES } from '@wharf/contract';
import type { FastifyRequest } from 'fastify';
import { badRequest, tooLarge, unsupportedMediaType } from '../../http/errors.ts';

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
    throw unsupportedMediaType('Send the logo as multipart/form-data with a field named file');
  const part = await request.file({ limits: { fileSize: LOGO_MAX_BYTES, files: 1 } });
  if (part?.fieldname !== 'file') {
    throw badRequest('file: Input is required', [{ field: 'file', message: 'Input is required' }]);
  }
  const bytes = await part.toBuffer().catch((error: { code?: string }) => {
    if (error.code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge('The logo must be at most 1 MiB');
    throw error;
  });
  if (part.file.truncated) throw tooLarge('The logo must be at most 1 MiB');
  const type = sniffImageType(bytes);
  if (!type) throw unsupportedMediaType('The logo must be a PNG, JPEG, WebP or GIF image');
  return { bytes, type };
}
