import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_COOKIE } from '../access/actor.ts';
import type { ServedFile } from '../edge/manifests.ts';
import { normalisePath } from '../edge/resolvePath.ts';
import { FileResponder } from '../edge/respond.ts';
import { cspNonceOf, NONCE_PLACEHOLDER } from '../http/securityHeaders.ts';
import { SERVER_PACKAGE_DIR } from '../packageDir.ts';
import { localFilesReader } from '../storage/localFiles.ts';
import { readConsoleFiles } from './consoleFiles.ts';

/**
 * The built console: in a release package (scripts/release.mjs) beside the server, in `console/`;
 * in the repository where `npm run build -w @wharf/web` puts it.
 */
const RELEASED_CONSOLE = path.join(SERVER_PACKAGE_DIR, 'console');
export const CONSOLE_DIR = existsSync(path.join(RELEASED_CONSOLE, 'index.html'))
  ? RELEASED_CONSOLE
  : path.resolve(SERVER_PACKAGE_DIR, '../web/dist');

/** Where the console's page says whether the request carried a session cookie (packages/web/index.html). */
export const SESSION_COOKIE_PLACEHOLDER = 'WHARF_SESSION_COOKIE';

/**
 * Each page is made for one answer: it carries the nonce of that answer's policy, so no cache may
 * hand it to anybody else, and the browser asks again each time it shows it.
 */
const PAGE_CACHE_CONTROL = 'private, no-cache';

const API_PREFIXES = ['/api/', '/auth/'];

const hasExtension = (urlPath: string) => /\.[^/]+$/.test(urlPath);

/** A file that could not be read: a 500 while nothing is sent yet, else a cut connection. */
function failed(fastify: FastifyInstance, req: IncomingMessage, res: ServerResponse, error: unknown) {
  fastify.log.error({ err: error, path: req.url }, 'a console file could not be sent');
  if (res.headersSent) return void res.destroy();
  res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
  res.end('Internal error');
}

/**
 * Serves the built console as the edge serves a site: files by the edge's responder (ETag and
 * 304, the brotli or gzip variant the client weighs highest, fingerprinted assets immutable), and
 * index.html for any other page path so that deep links such as /sites/{id}/branches load
 * directly (history fallback).
 */
export function serveConsole(fastify: FastifyInstance, root = CONSOLE_DIR) {
  const indexFile = path.join(root, 'index.html');
  if (!existsSync(indexFile)) {
    fastify.log.warn(`The console is not built (${indexFile} is missing); run npm run build -w @wharf/web`);
    return;
  }
  const indexHtml = readFileSync(indexFile, 'utf8');
  const files = readConsoleFiles(root);
  const responder = new FileResponder(localFilesReader(files.pathOf), fastify.log);

  async function sendFile(request: FastifyRequest, reply: FastifyReply, file: ServedFile) {
    // The responder writes the answer itself; the security headers are on it already.
    reply.hijack();
    const { raw: req } = request;
    const { raw: res } = reply;
    try {
      await responder.send(req, res, file, 200, []);
    } catch (error) {
      failed(fastify, req, res, error);
    }
  }

  function sendPage(request: FastifyRequest, reply: FastifyReply) {
    // Without a session cookie the console knows it is signed out without asking (and logging a 401).
    const sessionCookie = request.cookies[SESSION_COOKIE] ? 'present' : 'absent';
    const page = indexHtml
      .replaceAll(NONCE_PLACEHOLDER, cspNonceOf(reply))
      .replaceAll(SESSION_COOKIE_PLACEHOLDER, sessionCookie);
    return reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', PAGE_CACHE_CONTROL)
      .header('vary', 'Cookie')
      .send(page);
  }

  return async function consoleFallback(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    if (request.method !== 'GET' && request.method !== 'HEAD') return false;
    const rawPath = request.url.split('?')[0] ?? '/';
    if (API_PREFIXES.some((prefix) => rawPath.startsWith(prefix))) return false;
    const normalised = normalisePath(rawPath);
    if (!normalised) return false;
    const file = normalised.trailingSlash ? undefined : files.manifest.get(normalised.path);
    if (file) await sendFile(request, reply, file);
    else if (hasExtension(normalised.path)) return false;
    else await sendPage(request, reply);
    return true;
  };
}
