import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { api, openApiDocument } from '@wharf/contract';
import { contentTypeOf } from '../../lib/contentType.ts';
import { API_VERSION } from '../../version.ts';
import type { WharfApp } from '../../wharfApp.ts';

const swaggerDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const ASSETS = new Set([
  'swagger-ui.css',
  'swagger-ui-bundle.js',
  'swagger-ui-standalone-preset.js',
  'favicon-32x32.png',
]);

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
  <script>
    SwaggerUIBundle({ url: '/api/v1/openapi.json', dom_id: '#reference', deepLinking: true, withCredentials: true });
  </script>
</body>
</html>`;

/** The OpenAPI document and a readable reference of it at /api/docs, for people with API tokens. */
export function docsRoutes(app: WharfApp) {
  const document = openApiDocument(API_VERSION);
  app.handle(api.getOpenApi, () => document);

  app.fastify.get('/api/docs', (_request, reply) => reply.redirect('/api/docs/'));
  app.fastify.get('/api/docs/', (_request, reply) => reply.type('text/html; charset=utf-8').send(page));
  app.fastify.get<{ Params: { file: string } }>('/api/docs/:file', (request, reply) => {
    const { file } = request.params;
    if (!ASSETS.has(file))
      return reply.code(404).send({ statusCode: 404, error: 'Not Found', message: 'No such file' });
    return reply
      .type(contentTypeOf(file))
      .header('cache-control', 'public, max-age=86400')
      .send(createReadStream(path.join(swaggerDir, file)));
  });
}
