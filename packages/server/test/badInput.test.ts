import { allRoutes, type Route, routePath } from '@wharf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AccessRule, accessRules } from './accessRules.ts';
import { expectStatus, queryString, signedIn, type TestClient } from './client.ts';
import { databases, SWEEP_TIMEOUT, startTestServer, type TestServer } from './harness.ts';
import { snapshot } from './snapshot.ts';
import { buildWorld, type World } from './world.ts';

/** Values that break one field at a time: absent, wrong types, over-long, empty, malformed. */
const BAD_VALUES: unknown[] = [undefined, 12345, { nested: true }, 'x'.repeat(1001), '', ' !not/valid! ', -1, 'abc'];

/**
 * Text no field may hold, whatever its schema: PostgreSQL refuses a NUL, UTF-8 cannot encode a
 * lone surrogate. A query string cannot carry a lone surrogate at all (it is not UTF-8).
 */
const BAD_TEXT = [
  { value: 'a\u0000b', message: 'Must not contain the NUL character', inQuery: true },
  { value: 'a\ud800b', message: 'Must be valid Unicode text (a lone surrogate is not)', inQuery: false },
];

function objectShape(schema: unknown): Record<string, z.ZodType> | null {
  return schema instanceof z.ZodObject ? (schema.shape as Record<string, z.ZodType>) : null;
}

interface Variant {
  label: string;
  params: Record<string, string>;
  /** The valid call's headers (the media type of a raw body), kept as they are. */
  headers?: Record<string, string>;
  query?: Record<string, unknown>;
  body?: unknown;
  /** The message the contract gives for this input; the server must answer it for that field. */
  expected?: { field: string; message: string; code?: 'TEXT_INVALID' };
}

/** Every single-field corruption of a valid call that the contract refuses. */
function variantsOf(
  route: Route,
  valid: {
    params?: Record<string, string>;
    query?: Record<string, unknown>;
    body?: unknown;
    headers?: Record<string, string>;
  },
) {
  const variants: Variant[] = [];
  const params = valid.params ?? {};
  for (const part of ['body', 'query'] as const) {
    const schema = part === 'body' ? route.body : route.query;
    const shape = objectShape(schema);
    const base = (part === 'body' ? valid.body : valid.query) as Record<string, unknown> | undefined;
    if (!shape || !schema || route.multipart) continue;
    for (const [key, field] of Object.entries(shape)) {
      // A query string carries only text: judge what the server will actually receive.
      const values = part === 'query' ? BAD_VALUES.map((v) => (v === undefined ? v : String(v))) : BAD_VALUES;
      for (const value of values) {
        const corrupted = { ...(base ?? {}), [key]: value };
        if (value === undefined) delete corrupted[key];
        const result = field.safeParse(value);
        if (result.success) continue;
        const issue = result.error.issues[0]!;
        const field_ = [part === 'query' ? 'query' : '', key, ...issue.path.map(String)].filter(Boolean).join('.');
        variants.push({
          label: `${part}.${key} = ${JSON.stringify(value)?.slice(0, 20) ?? 'absent'}`,
          params,
          ...(part === 'body' ? { body: corrupted, query: valid.query } : { query: corrupted, body: valid.body }),
          expected: { field: field_, message: issue.message },
        });
      }
    }
  }
  variants.push(...badTextVariants(route, valid));
  for (const key of Object.keys(params)) {
    variants.push({
      label: `unknown ${key}`,
      params: { ...params, [key]: 'unknown0000000000' },
      query: valid.query,
      body: valid.body,
      ...(valid.headers ? { headers: valid.headers } : {}),
    });
  }
  return variants;
}

/** Each field of the body, query and path holding text no field may hold, one at a time. */
function badTextVariants(
  route: Route,
  valid: { params?: Record<string, string>; query?: Record<string, unknown>; body?: unknown },
) {
  const variants: Variant[] = [];
  const params = valid.params ?? {};
  const parts = [
    { part: 'body', prefix: '', shape: route.multipart || route.binaryBody ? null : objectShape(route.body) },
    { part: 'query', prefix: 'query', shape: objectShape(route.query) },
    { part: 'path', prefix: 'path', shape: Object.fromEntries(Object.keys(params).map((key) => [key, null])) },
  ] as const;
  for (const { part, prefix, shape } of parts) {
    for (const key of Object.keys(shape ?? {})) {
      for (const bad of BAD_TEXT) {
        if (part !== 'body' && !bad.inQuery) continue;
        const input = { params, query: valid.query, body: valid.body };
        const replaced = { ...((part === 'body' ? valid.body : part === 'query' ? valid.query : params) ?? {}) };
        (replaced as Record<string, unknown>)[key] = bad.value;
        variants.push({
          label: `${part}.${key} = ${JSON.stringify(bad.value)}`,
          params: part === 'path' ? (replaced as Record<string, string>) : input.params,
          query: part === 'query' ? replaced : input.query,
          body: part === 'body' ? replaced : input.body,
          expected: { field: [prefix, key].filter(Boolean).join('.'), message: bad.message, code: 'TEXT_INVALID' },
        });
      }
    }
  }
  return variants;
}

/** Who must be refused before their input is even looked at, and with which status and code. */
function refusalsBefore400(route: Route, scopeless: TestClient, anonymous: TestClient) {
  if (route.auth === 'public') return [];
  return [
    { who: 'anonymous', client: anonymous, status: 401, code: 'SIGN_IN_REQUIRED' },
    {
      who: 'a token without the scope',
      client: scopeless,
      status: 403,
      code: route.scope === null ? 'TOKEN_KIND_REFUSED' : 'TOKEN_SCOPE_MISSING',
    },
  ];
}

describe.each(databases)('bad input on $name', ({ postgres }) => {
  let server: TestServer;
  let world: World;
  let rules: ReturnType<typeof accessRules>;
  let scopeless: TestClient;

  beforeAll(async () => {
    // The access rules' calls queue builds: builds are on, and no node runs them (no builder role).
    server = await startTestServer({ postgres, env: { WHARF_BUILD_RUNTIME: 'podman', WHARF_ROLE: 'api,edge,worker' } });
    world = await buildWorld(server.url);
    rules = accessRules(await signedIn(server.url, 'joiner'));
    const token = expectStatus(await world.clients.owner.post('/api/v1/api-tokens', { name: 'none', scopes: [] }), 200);
    scopeless = world.clients.anonymous.withToken(token.value);
  });
  afterAll(() => server?.close());

  /** Every route the server implements, with each corruption of a valid call of the owner's. */
  async function* corruptedCalls() {
    for (const [name, route] of allRoutes) {
      const rule: AccessRule | undefined = rules[name];
      if (!rule || !server.app.implemented.has(route)) continue;
      const valid = await rule.call(world, 'owner');
      for (const variant of variantsOf(route, valid)) yield { name, route, variant };
    }
  }

  it(
    'refuses callers without the right to call a route (401/403) before it looks at their input',
    async () => {
      const problems: string[] = [];
      let checked = 0;
      for await (const { name, route, variant } of corruptedCalls()) {
        if (!variant.expected) continue;
        for (const refusal of refusalsBefore400(route, scopeless, world.clients.anonymous)) {
          const answer = await refusal.client.request(
            route.method.toUpperCase(),
            routePath(route.path, variant.params) + queryString(variant.query),
            variant.body,
          );
          checked++;
          if (answer.status !== refusal.status || answer.body?.code !== refusal.code) {
            problems.push(
              `${name} with ${variant.label} as ${refusal.who}: wanted ${refusal.status} ${refusal.code}, got ${answer.status} ${JSON.stringify(answer.body)}`,
            );
          }
        }
      }
      expect(problems).toEqual([]);
      expect(checked).toBeGreaterThan(140);
    },
    SWEEP_TIMEOUT,
  );

  it(
    'answers 4xx naming the field with the contract message, and changes nothing',
    async () => {
      const problems: string[] = [];
      let checked = 0;
      let badText = 0;
      // What the database held after one bad call is what it holds before the next of the same
      // route: nothing runs between them. A route's valid call (made before its variants) may add
      // fixtures, so each route starts from a fresh reading.
      let readFor = '';
      let reading = '';
      for await (const { name, route, variant } of corruptedCalls()) {
        if (name !== readFor) reading = await snapshot(server.app.db);
        readFor = name;
        const before = reading;
        const query = queryString(variant.query);
        const answer = await world.clients.owner.request(
          route.method.toUpperCase(),
          routePath(route.path, variant.params) + query,
          variant.body,
          variant.headers,
        );
        checked++;
        if (variant.expected?.code === 'TEXT_INVALID') badText++;
        const where = `${name} with ${variant.label}`;
        if (answer.status < 400 || answer.status >= 500) problems.push(`${where}: answered ${answer.status}`);
        if (variant.expected) {
          const details: { field: string; message: string }[] = answer.body?.details ?? [];
          const named = details.some(
            (d) => d.field === variant.expected!.field && d.message === variant.expected!.message,
          );
          if (answer.status !== 400 || answer.body?.code !== (variant.expected.code ?? 'VALIDATION_FAILED') || !named) {
            problems.push(
              `${where}: wanted 400 ${JSON.stringify(variant.expected)}, got ${answer.status} ${JSON.stringify(answer.body)}`,
            );
          }
        } else if (answer.status !== 404 && answer.status !== 400) {
          problems.push(`${where}: wanted 404, got ${answer.status}`);
        }
        reading = await snapshot(server.app.db);
        if (reading !== before) problems.push(`${where}: the database changed`);
      }
      expect(problems).toEqual([]);
      expect(checked).toBeGreaterThan(100);
      expect(badText).toBeGreaterThan(150);
    },
    SWEEP_TIMEOUT,
  );
});
