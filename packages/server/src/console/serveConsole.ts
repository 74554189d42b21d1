import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { cspNonceOf, NONCE_PLACEHOLDER } from '../http/securityHeaders.ts';
import { contentTypeOf } from '../lib/contentType.ts';
import { SERVER_PACKAGE_DIR } from '../packageDir.ts';

/** Where `npm run build -w @wharf/web` puts the console. */
export const CONSOLE_DIR = path.resolve(SERVER_PACKAGE_DIR, '../web/dist');

const API_PREFIXES = ['/api/', '/auth/'];

/**
 * Serves the built console: its files as they are, and index.html for any other page path so that
 * deep links such as /sites/{id}/branches load directly (history fallback).
 */
export function serveConsole(fastify: FastifyInstance, root = CONSOLE_DIR) {
  const indexFile = path.join(root, 'index.html');
  if (!existsSync(indexFile)) {
    fastify.log.warn(`The console is not built (${indexFile} is missing); run npm run build -w @wharf/web`);
    return;
  }
  const indexHtml = readFileSync(indexFile, 'utf8');

  return async function consoleFallback(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    if (request.method !== 'GET' && request.method !== 'HEAD') return false;
    const pathname = decodeURIComponent(request.url.split('?')[0] ?? '/');
    if (API_PREFIXES.some((prefix) => pathname.startsWith(prefix))) return false;
    const file = path.join(root, path.normalize(pathname));
    if (file.startsWith(root + path.sep) && file !== indexFile) {
      const info = await stat(file).catch(() => null);
      if (info?.isFile()) {
        // Vite fingerprints everything under assets/: those never change.
        const immutable = pathname.startsWith('/assets/');
        reply
          .header('content-type', contentTypeOf(file))
          .header('content-length', info.size)
          .header(
            'cache-control',
            immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=0, must-revalidate',
          );
        await reply.send(createReadStream(file));
        return true;
      }
      if (path.extname(pathname)) return false;
    }
    // Each page gets the nonce of its own Content-Security-Policy, so it is never served from a cache.
    const page = indexHtml.replaceAll(NONCE_PLACEHOLDER, cspNonceOf(reply));
    await reply.header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store').send(page);
    return true;
  };
}
