import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { api, contentTypeOf, openApiDocument, releaseConfigJsonSchema } from '@wharf/contract';
import { feature } from '../../features/feature.ts';
import type { PartsOf } from '../../features/parts.ts';
import { httpError } from '../../http/errors.ts';
import { API_VERSION } from '../../version.ts';

const swaggerDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const ASSETS = new Set([
  'swagger-ui.css',
  'swagger-ui-bundle.js',
  'swagger-ui-standalone-preset.js',
  'favicon-32x32.png',
]);

// A file of its own rather than an inline script: the Content-Security-Policy runs only files.
const startScript =
  "SwaggerUIBundle({ url: '/api/v1/openapi.json', dom_id: '#reference', deepLinking: true, withCredentials: true });\n";

const page = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Wharf API reference</title>
  <link rel="icon" href="/api/docs/favicon-32x32.png">
  <link rel="stylesheet" href="/api/docs/swagger-ui.css">
</head>
<body>
  <div id="reference"></div>
  <script src="/api/docs/swagger-ui-bundle.js"></script>
  <script src="/api/docs/start.js"></script>
</body>
</html>`;

const needs = ['access', 'fastify', 'handle'] as const;

/** A value made at its first use, then kept for the process. */
function madeOnFirstUse<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}

// The contract's documents, the same for every node of the process: made at the first request for
// them, not at every start. Converting the contract's schemas took about 150 ms of CPU, most of
// what building a node costs (every worker of a cluster, every server a test starts).
const openApi = madeOnFirstUse(() => openApiDocument(API_VERSION));
const releaseConfigSchema = madeOnFirstUse(releaseConfigJsonSchema);

/**
 * The OpenAPI document and a readable reference of it at /api/docs, for people with API tokens;
 * the JSON Schema of `.wharf.yml`, for editors.
 */
function docsRoutes(parts: PartsOf<(typeof needs)[number]>) {
  parts.handle(api.getOpenApi, parts.access.everyone, openApi);
  parts.handle(api.getReleaseConfigSchema, parts.access.everyone, releaseConfigSchema);

  parts.fastify.get('/api/docs', (_request, reply) => reply.redirect('/api/docs/'));
  parts.fastify.get('/api/docs/', (_request, reply) => reply.type('text/html; charset=utf-8').send(page));
  parts.fastify.get('/api/docs/start.js', (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(startScript),
  );
  parts.fastify.get<{ Params: { file: string } }>('/api/docs/:file', (request, reply) => {
    const { file } = request.params;
    if (!ASSETS.has(file)) throw httpError('ROUTE_NOT_FOUND', 'No such file');
    return reply
      .type(contentTypeOf(file))
      .header('cache-control', 'public, max-age=86400')
      .send(createReadStream(path.join(swaggerDir, file)));
  });
}

/** The API's reference. */
export const docsFeature = feature({ name: 'docs', needs, routes: docsRoutes });
