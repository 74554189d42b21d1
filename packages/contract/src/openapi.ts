import { z } from 'zod';
import { errorCodes } from './errorCodes.ts';
import { apiError } from './errors.ts';
import { noContent, type Route } from './route.ts';
import { allRoutes } from './routes/table.ts';

function jsonSchema(schema: z.ZodType, io: 'input' | 'output') {
  return z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'openapi-3.0' });
}

function parameters(route: Route) {
  const list: Record<string, unknown>[] = [];
  for (const [location, schema] of [
    ['path', route.params],
    ['query', route.query],
  ] as const) {
    if (!(schema instanceof z.ZodObject)) continue;
    for (const [name, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
      list.push({
        name,
        in: location,
        required: location === 'path' || !field.safeParse(undefined).success,
        schema: jsonSchema(field, 'input'),
      });
    }
  }
  if (route.idempotent) {
    list.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description: 'A key of your choosing (1 to 255 visible characters), the same on every retry of this request',
      schema: { type: 'string', maxLength: 255 },
    });
  }
  return list;
}

function requestBody(route: Route) {
  if (route.multipart) return { content: { 'multipart/form-data': { schema: { type: 'object' } } } };
  if (route.binaryBody) return { content: { [route.binaryBody]: { schema: { type: 'string', format: 'binary' } } } };
  if (!route.body) return undefined;
  return { required: true, content: { 'application/json': { schema: jsonSchema(route.body, 'input') } } };
}

/** A token holding the route's scope; on its own token's routes, any token of the path's id. */
function tokenSecurity(route: Route) {
  if (route.scope) return [{ token: [route.scope] }];
  return route.auth === 'ownToken' ? [{ token: [] }] : [];
}

function responses(route: Route) {
  const success =
    route.response === noContent
      ? { [route.status]: { description: 'Done' } }
      : {
          [route.status]: {
            description: 'Success',
            content: { 'application/json': { schema: jsonSchema(route.response, 'output') } },
          },
        };
  return {
    ...success,
    '4XX': {
      description: 'Refused: decide by `code`; the message says what to change',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    },
  };
}

/** The OpenAPI 3 document of the API, derived from the route table: nothing is written twice. */
export function openApiDocument(version: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [name, route] of allRoutes) {
    const path = route.path.replace(/:([A-Za-z]+)/g, '{$1}');
    const tag = path.split('/').filter(Boolean)[path.startsWith('/api/v1') ? 2 : 0] ?? 'api';
    paths[path] ??= {};
    paths[path][route.method] = {
      operationId: name,
      summary: route.summary,
      tags: [tag.replace(/\..*$/, '')],
      description: route.scope
        ? `API token scope: \`${route.scope}\``
        : route.auth === 'ownToken'
          ? 'An API token may call it on itself only.'
          : 'Cannot be called with an API token.',
      'x-wharf-scope': route.scope,
      security: route.auth === 'public' ? [] : [{ session: [] }, ...tokenSecurity(route)],
      parameters: parameters(route),
      requestBody: requestBody(route),
      responses: responses(route),
    };
  }
  return {
    openapi: '3.0.3',
    info: { title: 'Wharf API', version, description: 'Every route of Wharf, with the API token scope it needs.' },
    components: {
      schemas: {
        Error: {
          ...jsonSchema(apiError, 'output'),
          description: `Codes and their statuses: ${Object.entries(errorCodes)
            .map(([code, status]) => `${code} ${status}`)
            .join(', ')}`,
        },
      },
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'wharf_session' },
        token: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API token (wharf_api_…) or, for uploads, a site token',
        },
      },
    },
    paths,
  };
}
