import type { IncomingMessage } from 'node:http';
import { Busboy, type BusboyHeaders, type BusboyInstance } from '@fastify/busboy';

export const MAX_FORM_BYTES = 64 * 1024;
const MAX_FIELDS = 100;

export class FormBodyError extends Error {
  constructor(readonly status: 400 | 413 | 415) {
    super(`form body refused with ${status}`);
  }
}

async function readText(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_FORM_BYTES) throw new FormBodyError(413);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function readMultipart(req: IncomingMessage): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = {};
    let parser: BusboyInstance;
    try {
      parser = new Busboy({
        headers: req.headers as BusboyHeaders,
        limits: { fieldSize: MAX_FORM_BYTES, fields: MAX_FIELDS, files: 0 },
      });
    } catch {
      return reject(new FormBodyError(400));
    }
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_FORM_BYTES) {
        req.unpipe(parser);
        reject(new FormBodyError(413));
      }
    });
    parser.on('field', (name: string, value: string) => {
      fields[name] = value;
    });
    parser.on('file', (_name: string, stream: NodeJS.ReadableStream) => stream.resume());
    parser.on('finish', () => resolve(fields));
    parser.on('error', () => reject(new FormBodyError(400)));
    req.pipe(parser);
  });
}

/** The fields of a form post: url-encoded, multipart (files ignored) or a flat JSON object. */
export async function readFormBody(req: IncomingMessage): Promise<Record<string, string>> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'multipart/form-data') return readMultipart(req);
  const text = await readText(req);
  if (type === 'application/x-www-form-urlencoded' || type === '') {
    return Object.fromEntries(new URLSearchParams(text));
  }
  if (type === 'application/json') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new FormBodyError(400);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new FormBodyError(400);
    return Object.fromEntries(
      Object.entries(parsed).map(([key, value]) => [key, typeof value === 'string' ? value : JSON.stringify(value)]),
    );
  }
  throw new FormBodyError(415);
}
